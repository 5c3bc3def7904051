"""Record pattern questions read as users put them: what follows an event said as a verb ("when a
tanker runs aground, how bad does it get?"), what goes wrong for a kind of ship or aircraft, makes
and models in the plural, TAIC's reports by what they conclude and by rail; a question about the
archive's records never greeted; a set read for the kind of record the archive holds; a pattern
question's registry word read as a field."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.runtime import Runtime

from answers.counting import count_plan
from answers.patterns import PatternPlan, compose_pattern, pattern_plan
from answers.sea_events import initial_event
from archive.store.counts import RecordCount, RecordQuery
from archive.store.passages import Passage
from archive.store.patterns import SetStatements
from graph.context import Context
from graph.intents import EXAMPLES
from graph.nodes.classify_intent import classify_intent
from graph.nodes.count_records import grouped
from graph.nodes.resolve_filters import resolve_filters
from graph.state import State
from tests.fakes.clients import FakeBackend, fleet_fixture
from tools.filters import VesselRegistry


def _pattern(question: str) -> PatternPlan:
    plan = pattern_plan(question)
    assert plan is not None, question
    return plan


@pytest.mark.parametrize(
    ("question", "event", "family"),
    [
        ("When a tanker runs aground, how bad does it usually get?", "grounding", ("tanker",)),
        ("When a ship catches fire, what usually follows?", "fire", ()),
        ("What happens after a fishing vessel capsizes?", "capsizing", ("fishing vessel",)),
        ("How do groundings of bulk carriers usually end?", "grounding", ("bulk carrier",)),
        ("What do collisions typically lead to?", "collision", ()),
        ("Fires on cruise ships: what typically comes after?", "fire", None),
        ("When container ships collide, what is the usual outcome?", "collision", None),
    ],
)
def test_what_follows_an_event_is_its_recorded_consequences(
    question: str, event: str, family: tuple[str, ...] | None
) -> None:
    pattern = _pattern(question)
    query = pattern.plan.query
    assert (pattern.about, query.kind) == ("outcome", "casualty"), question
    assert query.initial_event.startswith(event), question
    if family is not None:
        assert query.vessel_families == family, question


@pytest.mark.parametrize(
    "question",
    [
        "What usually leads to groundings of bulk carriers?",  # what leads to it: its cause
        "Bulk carriers that ended up a total loss: what started it?",  # the outcome is a filter
        "What typically goes wrong with ro-ro ferries?",
    ],
)
def test_what_leads_to_an_event_stays_its_cause(question: str) -> None:
    assert _pattern(question).about == "cause", question


@pytest.mark.parametrize(
    ("said", "event"),
    [
        ("ships that ran aground", "grounding"),
        ("a ferry that caught fire", "fire or explosion"),
        ("when the engine breaks down", "machinery"),
        ("after a barge hits the quay", "contact"),
        ("when a trawler sinks", "sinking or foundering"),
        ("ships that turned over", "capsizing"),
        ("a tanker that exploded", "fire or explosion"),
    ],
)
def test_an_event_said_as_a_verb_is_the_recorded_initial_event(said: str, event: str) -> None:
    found = initial_event(said)
    assert found is not None and found[0] == event, said


def test_a_count_of_ships_that_sank_still_counts_their_loss() -> None:
    plan = count_plan("How many ships sank in 2012?")
    assert plan is not None
    assert plan.query.initial_event == "" and plan.query.outcomes == ("total_loss",)


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("What goes wrong for ships in the English Channel?", {"kind": "casualty"}),
        ("What do Cirrus accidents usually come down to?", {"make": "CIRRUS"}),
        (
            "Student pilots in Cessnas: what usually goes wrong?",
            {"make": "CESSNA", "purpose": "INST"},
        ),
        ("What is usually to blame for helicopter accidents in Alaska?", {"category": "HELI"}),
        ("What kills pilots in Cessna 172s most often?", {"model": "^172(?![0-9])"}),
        ("Crop dusters: why do they crash?", {"purpose": "AAPL"}),
    ],
)
def test_a_kind_asked_in_users_words_selects_its_records(
    question: str, fields: dict[str, str]
) -> None:
    query = _pattern(question).plan.query
    assert {k: getattr(query, k) for k in fields} == fields, question


def test_the_great_lakes_are_no_make() -> None:
    query = _pattern("What usually goes wrong in accidents in the Great Lakes states?").plan.query
    assert query.make == "" and "Ohio" in query.regions


@pytest.mark.parametrize(
    ("question", "mode", "topic"),
    [
        ("What do TAIC's aviation investigations usually conclude?", "aviation", ""),
        ("In TAIC's maritime reports, what keeps coming up?", "marine", ""),
        ("What does TAIC usually say about level crossing accidents?", "rail", "level crossing"),
        ("What do New Zealand rail accident investigations usually find?", "rail", ""),
        ("What keeps going wrong on the railways since 2012?", "rail", ""),
    ],
)
def test_taic_reports_by_what_they_conclude_and_by_rail(
    question: str, mode: str, topic: str
) -> None:
    pattern = _pattern(question)
    assert (pattern.about, pattern.plan.query.mode) == ("finding", mode), question
    assert pattern.topic.startswith(topic), question


class _Greets:
    """An embedding classifier that calls every message a greeting (a stand-in embedder can):
    the greeting examples point one way, all other examples another, every message the first."""

    async def aembed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] if t in EXAMPLES["greeting"] else [0.0, 1.0] for t in texts]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("What do Cirrus accidents usually come down to?", "factual_query"),
        ("Which flags show up in the casualties near Singapore?", "factual_query"),
        ("Did TAIC look into level crossings?", "factual_query"),
        ("can I ask about reports?", "greeting"),  # about the assistant: the classifier decides
        ("nice weather today", "greeting"),
    ],
)
async def test_a_question_naming_records_is_never_greeted(text: str, intent: str) -> None:
    update = await classify_intent({"brief": text}, embeddings=_Greets(), model=None)  # type: ignore[arg-type]
    assert update["intent"] == intent, text


async def test_a_set_is_read_for_the_kind_of_record_the_archive_holds() -> None:
    """An archive of TAIC reports alone: a question about ferries, read at first as IMO
    casualties (none held), is grouped over TAIC's marine reports."""
    finding = "The master had not slept for twenty hours before the ferry grounded."
    asked: list[tuple[str, str]] = []

    async def causes(query: RecordQuery, topic: str, about: str) -> SetStatements:
        asked.append((query.kind, about))
        if query.kind != "investigation_report" or query.mode != "marine":
            return SetStatements(size=0, statements=[], reference=[])
        rows = []
        for i in range(3):
            passage = Passage(  # type: ignore[typeddict-item]
                chunk_id=f"{i:012x}", doc_id=f"r{i}", title=f"MO-{i}", text=finding, kind="taic"
            )
            rows.append((passage, finding))
        return SetStatements(size=3, statements=rows, reference=[finding] * 20)

    async def counter(query: RecordQuery) -> RecordCount:
        held = query.kind == "investigation_report"
        return RecordCount(matched=3 if held else 0, scope=3 if held else 0)

    question = "What usually goes wrong on ferries?"
    assert _pattern(question).plan.query.kind == "casualty"
    state = await grouped({"question": question}, causes, None, None, counter)
    assert state.get("counted") is True
    assert asked[0] == ("casualty", "cause") and ("investigation_report", "finding") in asked
    said = str(state["messages"][0].content)
    assert said.startswith("3 TAIC reports") and "of marine occurrences" in said, said


async def test_an_empty_set_of_a_held_kind_is_not_read_otherwise() -> None:
    async def causes(query: RecordQuery, topic: str, about: str) -> SetStatements:
        assert query.kind == "casualty", "re-read although casualties are held"
        return SetStatements(size=0, statements=[], reference=[])

    async def counter(query: RecordQuery) -> RecordCount:
        return RecordCount(matched=500, scope=500)

    state = await grouped(
        {"question": "What usually goes wrong on ferries in 1890?"}, causes, None, None, counter
    )
    assert not state.get("counted")


def _runtime() -> Runtime[Context]:
    return Runtime(context=Context(), store=None, stream_writer=lambda _: None, previous=None)


async def test_a_pattern_questions_registry_word_is_read_as_a_field() -> None:
    """ "ships like the Nordic Star" in 2020-21: the registered ship has no record then; the
    pattern's set is taken over the records' fields, not stopped as a filter matching nothing."""
    passages, registry, docs = fleet_fixture()
    backend = FakeBackend(passages, registry, docs)
    state: State = {
        "question": "What usually goes wrong on ships like the Nordic Star from 2020 to 2021?",
        "filters": {},
    }
    update: dict[str, Any] = dict(
        await resolve_filters(
            state, _runtime(), registry=VesselRegistry(backend.vessels), backend=backend
        )
    )
    assert "filter_problem" not in update and "vessels" not in update["filters"]


@pytest.mark.parametrize(
    ("question", "held"),
    [
        ("What goes wrong for Piper pilots in Texas?", True),
        ("Why do student pilots crash?", True),
        ("What caused the pilots to crash?", False),  # the pilots of one accident
        ("What caused both pilots to lose control?", False),
    ],
)
def test_pilots_of_a_kind_are_a_set(question: str, held: bool) -> None:
    assert (pattern_plan(question) is not None) is held, question


def test_an_outcome_said_with_with_follows_the_records() -> None:
    pattern = _pattern("Accidents where no one died in 2014: typical causes?")
    lead = compose_pattern(pattern, 714, []).split(". ")[0]
    assert lead.startswith("714 accident records from 2014 with nobody killed are in"), lead
    fatal = _pattern("common causes of fatal accidents in Ohio")
    assert compose_pattern(fatal, 20, []).startswith("20 fatal accident records in Ohio")


@pytest.mark.parametrize(
    ("question", "mode", "topic"),
    [
        ("What do TAIC reports on fatigue usually find?", "", "fatigue"),
        ("What do TAIC inquiries into ferry groundings usually conclude?", "marine", "ferry"),
        ("What do TAIC reports on New Zealand rail usually find?", "rail", ""),
        ("What does TAIC usually find about level crossing accidents?", "rail", "level crossing"),
        (
            "What are the recurring findings of TAIC aviation inquiries involving weather?",
            "",
            "weather",
        ),
    ],
)
def test_what_taic_reports_are_on_is_their_topic_without_the_words_for_reports(
    question: str, mode: str, topic: str
) -> None:
    pattern = _pattern(question)
    assert pattern.plan.query.mode.startswith(mode) and pattern.topic.startswith(topic), question
    assert not {"report", "accid", "rail", "zealand"} & set(pattern.topic.lower().split())


def test_what_happens_to_ships_of_a_kind_after_an_event_is_its_consequences() -> None:
    pattern = _pattern("What usually happens to ro-ro passenger ships that capsize?")
    assert pattern.about == "outcome" and pattern.plan.query.initial_event == "capsizing"


@pytest.mark.parametrize(
    ("question", "held"),
    [
        ("What did TAIC's investigations into level crossing collisions find?", True),
        ("What did the TAIC report on the Aratere find?", False),  # one report
        ("What did TAIC find about the Rena grounding?", False),
    ],
)
def test_what_taic_reports_in_the_plural_found_is_a_pattern(question: str, held: bool) -> None:
    assert (pattern_plan(question) is not None) is held, question


def test_seaplanes_that_capsize_are_aircraft() -> None:
    assert _pattern("What happens when a seaplane capsizes?").plan.query.kind == "ntsb_report"
    assert _pattern("What happens after a ferry capsizes?").plan.query.kind == "casualty"


@pytest.mark.parametrize(
    "question",
    ["Show me patterns in glider accidents", "Tell me about trends in Robinson crashes in 2013"],
)
def test_patterns_or_trends_asked_for_are_a_pattern(question: str) -> None:
    assert pattern_plan(question) is not None, question


async def test_a_request_naming_records_is_never_greeted() -> None:
    update = await classify_intent(
        {"brief": "Show me the accidents in Texas"},
        embeddings=_Greets(),  # type: ignore[arg-type]
        model=None,
    )
    assert update["intent"] == "factual_query"
