"""Questions that count, on real PostgreSQL: tiny exact fixtures of NTSB records and IMO
casualties are ingested, counted in SQL over the whole set, and answered through the graph."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.evaluation.answer_kinds import first_number
from agent.settings import Settings
from agent.wiring import Services, build_clients
from archive.store.counts import RecordQuery, count_records
from graph.builder import build_graph
from tests.integration.records_archive import ask, records_archive

pytestmark = pytest.mark.integration


def _record(
    no: str,
    day: str,
    state: str,
    make: str,
    fatal: int,
    serious: int = 0,
    cause: str = "The pilot's failure to maintain airspeed.",
) -> dict[str, Any]:
    return {
        "ntsb_no": no,
        "event_date": day,
        "city": "Somewhere",
        "state": state,
        "make": make,
        "model": "172",
        "aircraft_category": "AIR",
        "fatal": fatal,
        "serious": serious,
        "minor": 0,
        "weather": "VMC",
        "narrative": f"The airplane {no} struck terrain after takeoff.",
        "probable_cause": cause,
    }


RECORDS = [
    _record("CEN11FA001", "2011-02-03", "Texas", "CESSNA", 2),
    _record("CEN11FA002", "2011-05-06", "Texas", "PIPER", 1, cause="Fuel exhaustion."),
    _record("CEN11LA003", "2011-07-08", "Texas", "CESSNA", 0, serious=1),
    _record("CEN12FA004", "2012-01-02", "Texas", "CESSNA", 1),  # another year
    _record("WPR11FA005", "2011-03-04", "California", "CESSNA", 3),  # another state
]
CASUALTIES = [
    {"Reference": "C1", "ShipsInvolved": "ALPHA (IMO 9000001)", "FlagStates": "PAN",
     "IncidentDateTime": "2005-01-01 00:00", "InitialEvent": "Collision",
     "ShipType1": "Oil Tanker", "Consequences1": "Loss of life"},
    {"Reference": "C2", "ShipsInvolved": "BRAVO (IMO 9000002), CHARLIE (IMO 9000003)",
     "FlagStates": "LBR,PAN", "IncidentDateTime": "2006-01-01 00:00",
     "InitialEvent": "Stranding / grounding", "ShipType1": "Bulk Carrier", "Consequences1": ""},
    {"Reference": "C3", "ShipsInvolved": "DELTA (IMO 9000004)", "FlagStates": "MLT",
     "IncidentDateTime": "2006-02-01 00:00", "InitialEvent": "Collision",
     "ShipType1": "Oil Tanker", "Consequences1": "Loss of life,Total loss of the ship"},
    {"Reference": "C4", "ShipsInvolved": "ECHO (IMO 9000005)", "FlagStates": "GRC",
     "IncidentDateTime": "2007-03-01 00:00", "InitialEvent": "Flooding",
     "ShipType1": "ORE CARRIER", "Consequences1": "Loss of life"},
]  # fmt: skip


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder = tmp_path_factory.mktemp("records")
    collection = f"{settings.collection}_counts"
    async with records_archive(settings, folder, collection, RECORDS, CASUALTIES) as svc:
        yield svc


async def test_counts_are_exact_over_the_whole_set(services: Services) -> None:
    year = {"date_from": date(2011, 1, 1), "date_to": date(2011, 12, 31)}
    fatal = await count_records(
        services.store, RecordQuery("ntsb_report", region="Texas", outcomes=("fatal",), **year)
    )
    assert (fatal.matched, fatal.scope) == (2, 3)
    assert {p["source_id"] for p in fatal.examples} == {"CEN11FA001", "CEN11FA002"}
    cessna = await count_records(services.store, RecordQuery("ntsb_report", make="cessna"))
    assert (cessna.matched, cessna.scope) == (4, 4)
    hurt = await count_records(services.store, RecordQuery("ntsb_report", outcomes=("serious",)))
    assert hurt.matched == 1
    panama = await count_records(services.store, RecordQuery("casualty", flag="PAN"))
    assert panama.matched == 2  # one ship of two flagged PAN counts the casualty once
    deaths = await count_records(
        services.store,
        RecordQuery("casualty", vessel_families=("tanker",), outcomes=("loss_of_life",)),
    )
    assert (deaths.matched, deaths.scope) == (2, 2)
    grounded = await count_records(
        services.store, RecordQuery("casualty", initial_event="grounding")
    )
    assert grounded.matched == 1


async def test_a_count_of_a_ship_type_counts_its_family_and_names_related_types(
    services: Services,
) -> None:
    """ "bulk carriers" counts the family, an ore carrier included, and names the ore carrier
    with its count, so it is never silently in or out."""
    bulk = await count_records(
        services.store,
        RecordQuery("casualty", vessel_families=("bulk carrier",), vessel_named="bulk"),
    )
    assert (bulk.matched, bulk.related) == (2, [("ORE CARRIER", 1)])
    state = await ask(services, "How many casualties with loss of life involved bulk carriers?")
    answer = str(state["messages"][-1].content)
    assert first_number(answer) == 1 and "of the 2 casualty records of bulk carriers" in answer
    assert "Counted with them: 1 casualty records of related types" in answer, answer
    assert "(ORE CARRIER 1)" in answer, answer


async def test_a_count_question_is_answered_with_the_count_and_cited(services: Services) -> None:
    state = await ask(services, "How many accidents in Texas in 2011 were fatal?")
    answer = str(state["messages"][-1].content)
    assert first_number(answer) == 2, answer
    assert "3 accident records" in answer and not state["cutoff"]
    assert state["counted"] and state["diagnostics"]["count"]["scope"] == 3
    assert len(state["citations"]) == 2
    assert state["diagnostics"]["citation_check"]["invalid"] == 0

    state = await ask(services, "How many casualties involved ships flagged in Panama?")
    assert first_number(str(state["messages"][-1].content)) == 2
    assert state["citations"] and state["diagnostics"]["citation_check"]["invalid"] == 0


async def test_a_zero_count_states_its_set_and_other_questions_search(services: Services) -> None:
    state = await ask(
        services, "How many accidents in California in 2011 involved serious injuries?"
    )
    answer = str(state["messages"][-1].content)
    assert first_number(answer) == 0 and "of the 1 accident record in" in answer, answer
    assert state["citations"]  # the set it was counted among is cited
    state = await ask(services, "What caused the accident CEN11FA001?")
    assert not state["counted"] and state["searches"] >= 1


async def test_a_pattern_question_groups_the_whole_sets_causes(services: Services) -> None:
    state = await ask(services, "What are the most common causes of fatal accidents in Texas?")
    answer = str(state["messages"][-1].content)
    assert state["counted"] and not state["cutoff"]
    assert answer.startswith("3 fatal accident records in Texas are in the archive"), answer
    assert "— 2 of 3 (67%)" in answer and "Fuel exhaustion" not in answer.split("—")[0]
    assert state["diagnostics"]["citation_check"]["invalid"] == 0
    assert {c["doc_id"] for c in state["citations"]} == {
        d for (d,) in await _doc_ids(services, "CEN11FA001", "CEN11FA002", "CEN12FA004")
    }

    state = await ask(services, "What are the most common causes of casualties of tankers?")
    answer = str(state["messages"][-1].content)
    assert "- **Collision** — 2 of 2 (100%)" in answer, answer

    state = await ask(services, "What are the usual consequences of collisions involving tankers?")
    answer = str(state["messages"][-1].content)
    assert answer.startswith(
        "2 casualty records of tankers and related types whose initial event was collision"
    )
    assert "- **Loss of life** — 2 of 2 (100%)" in answer, answer
    assert "- **Total loss of the ship** — 1 of 2 (50%)" in answer, answer


async def test_the_headline_pattern_question_is_answered_not_cut_off(services: Services) -> None:
    """ "common causes of fatal … accidents" over the NTSB records: its set is not empty, so the
    relevance cutoff never sees it."""
    state = await ask(services, "What are the common causes of fatal accidents?")
    answer = str(state["messages"][-1].content)
    assert state["counted"] and not state["cutoff"] and state["citations"]
    assert answer.startswith("4 fatal accident records are in the archive"), answer


async def test_an_empty_pattern_set_goes_on_to_the_search(services: Services) -> None:
    state = await ask(services, "What are the most common causes of fatal accidents in Ohio?")
    assert not state["counted"] and state["searches"] >= 1


async def _doc_ids(services: Services, *report_nos: str) -> list[tuple[str]]:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT doc_id FROM documents WHERE report_no = ANY(%s)", (list(report_nos),)
        )
        return [(r["doc_id"],) for r in await cur.fetchall()]


async def test_a_question_asking_for_records_by_date_alone_is_answered_not_cut_off(
    services: Services,
) -> None:
    """ "Which accidents happened since ...?" names nothing but a kind of record and a date:
    its set holds records, so the relevance cutoff does not stop it; a question about
    something the archive does not hold, in the same dates, still stops."""
    state = await ask(services, "Which accidents happened since June 2011?")
    assert not state["cutoff"] and state["record_set"] == 2, state["messages"][-1].content
    assert state["relevance"].get("kept_for_record_set") or not state["relevance"]["stopped"]
    cited = await _doc_ids(services, "CEN11LA003", "CEN12FA004")
    assert {c["doc_id"] for c in state["citations"]} <= {d for (d,) in cited}
    assert state["citations"]
    state = await ask(services, "What was the best sourdough recipe since June 2011?")
    assert state["cutoff"] and state["record_set"] == 0


async def test_a_vessel_followup_is_answered_from_the_casualty_records_fields(
    services: Services,
) -> None:
    """ "what flag was she flying?" after a question about one ship: the casualty record's flag
    field, cited to that record alone (the fields travel with the passage from the store)."""
    graph = build_graph(build_clients(services, offline=True), checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
    await graph.ainvoke({"messages": [HumanMessage("What happened to the DELTA in 2006?")]}, config)
    turns = {
        "what flag was she flying?": "C3: DELTA was flagged in Malta (MLT).",
        "what were the consequences?": "consequences were: loss of life; total loss of the ship.",
        "what was the initial event?": "the initial event was collision.",
    }
    (delta,) = await _casualty_ids(services, "C3")
    for question, line in turns.items():
        state = await graph.ainvoke({"messages": [HumanMessage(question)]}, config)
        answer = str(state["messages"][-1].content)
        assert line in answer, (question, answer)
        assert {c["doc_id"] for c in state["citations"]} == {delta}, (question, answer)


async def _casualty_ids(services: Services, *references: str) -> list[str]:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT doc_id FROM documents WHERE kind = 'casualty' AND source_id = ANY(%s)",
            (list(references),),
        )
        return [r["doc_id"] for r in await cur.fetchall()]
