"""Counts over the record fields an analyst asks about, on real PostgreSQL: the kind of flight,
the damage, several aircraft, weekends, "or" lists of states and flags, models per aircraft,
injury levels, class societies, tonnage, ships involved and the dead or missing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from agent.evaluation.answer_kinds import first_number
from agent.settings import Settings
from agent.wiring import Services
from answers.counting import count_plan
from archive.store.counts import RecordQuery, count_records
from tests.integration.records_archive import ask, records_archive

pytestmark = pytest.mark.integration


def _record(no: str, day: str, state: str, **fields: Any) -> dict[str, Any]:
    return {
        "ntsb_no": no,
        "event_date": day,
        "city": "Somewhere",
        "state": state,
        "make": "CESSNA",
        "model": "172S",
        "aircraft_category": "AIR",
        "fatal": 0,
        "serious": 0,
        "minor": 0,
        "weather": "VMC",
        "far_part": "091",
        "purpose": "PERS",
        "damage": "Substantial",
        "narrative": f"The airplane {no} landed hard.",
        "probable_cause": "The pilot's improper flare.",
        **fields,
    }


RECORDS = [
    _record("CEN12LA001", "2012-03-03", "Arkansas", purpose="INST"),  # a Saturday
    _record("CEN12LA002", "2012-03-05", "Indiana", minor=1),  # a Monday
    _record("CEN12FA003", "2012-03-11", "Ohio", fatal=3, damage="Destroyed"),  # a Sunday
    _record(
        "CEN12FA004", "2012-04-02", "Ohio", make="PIPER, CESSNA", model="PA-28-181, 182T",
        aircraft_category="AIR, AIR", damage="Substantial,Destroyed", fatal=1, serious=1,
    ),
    _record("CEN12LA005", "2012-05-02", "Texas", make="NEW PIPER", model="PA 28R-201",
            far_part="135", purpose="", minor=2),
    _record("CEN12LA006", "2012-06-04", "Texas", make="HAWKER BEECHCRAFT CORP", model="A36",
            far_part="091,091", purpose="PERS,INST"),
]  # fmt: skip
CASUALTIES = [
    {"Reference": "F1", "Location": "Bay of Biscay",
     "ShipsInvolved": "ALPHA (IMO 9000011)", "FlagStates": "FRA",
     "IncidentDateTime": "1995-01-01 00:00", "TypeOfCasualty": "Very serious",
     "InitialEvent": "Foundering",
     "ShipType1": "Bulk Carrier", "GrossTonnage1": "45000", "NumberOfShipsInvolved": "1",
     "ClassificationSociety1": "American Bureau of Shipping (ABS)", "DeadMissingCrew2": "2",
     "DeadMissingPassengers2": "0"},
    {"Reference": "F2", "Location": "North Sea, off Texel",
     "ShipsInvolved": "BRAVO (IMO 9000012), CHARLIE (IMO 9000013)",
     "FlagStates": "ATG,PAN", "IncidentDateTime": "1996-05-01 00:00",
     "InitialEvent": "Collision",
     "TypeOfCasualty": "Serious", "ShipType1": "Oil Tanker", "GrossTonnage1": "9000",
     "NumberOfShipsInvolved": "2", "ClassificationSociety1": "Lloyd's Register",
     "DeadMissingCrew2": "0", "DeadMissingPassengers2": "4"},
    {"Reference": "F3", "Location": "", "ShipsInvolved": "MAY (IMO 9000014)", "FlagStates": "MLT",
     "IncidentDateTime": "2005-07-01 00:00", "TypeOfCasualty": "Less serious",
     "InitialEvent": "Sinking",
     "ShipType1": "General Cargo Ship", "GrossTonnage1": "[Primary Annex 1 not designated]",
     "NumberOfShipsInvolved": "1", "ClassificationSociety1": "",
     "DeadMissingCrew2": "", "DeadMissingPassengers2": ""},
    {"Reference": "F4", "Location": "NORTH SEA",
     "ShipsInvolved": "DELTA (IMO 9000015)", "FlagStates": "GRC",
     "IncidentDateTime": "2005-05-09 00:00", "TypeOfCasualty": "Serious",
     "InitialEvent": "Man overboard",
     "ShipType1": "General Cargo Ship", "GrossTonnage1": "12000", "NumberOfShipsInvolved": "1",
     "ClassificationSociety1": "Lloyd's Register", "DeadMissingCrew2": "0",
     "DeadMissingPassengers2": "0"},
    {"Reference": "F5", "Location": "Baltic sea, port Klaipeda",
     "ShipsInvolved": "ECHO (IMO 9000016)", "FlagStates": "NOR",
     "IncidentDateTime": "2001-02-03 00:00", "TypeOfCasualty": "Serious",
     "InitialEvent": "Collision with fixed objects (piers, bridges, etc)", "ShipType1": "Tug",
     "GrossTonnage1": "", "NumberOfShipsInvolved": "1", "ClassificationSociety1": "",
     "DeadMissingCrew2": "", "DeadMissingPassengers2": ""},
]  # fmt: skip


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder = tmp_path_factory.mktemp("fields")
    collection = f"{settings.collection}_fields"
    async with records_archive(settings, folder, collection, RECORDS, CASUALTIES) as svc:
        yield svc


async def _ids(services: Services, query: RecordQuery) -> set[str]:
    """The records ``query`` counts (all of them: the fixtures are fewer than the examples)."""
    count = await count_records(services.store, query)
    assert count.matched <= 3, "more records than examples: compare counts instead"
    assert len(count.examples) == count.matched
    return {str(p["source_id"]) for p in count.examples}


async def test_aviation_fields_filter_any_aircraft(services: Services) -> None:
    air = "ntsb_report"
    assert await _ids(services, RecordQuery(air, weekend=True)) == {"CEN12LA001", "CEN12FA003"}
    assert await _ids(services, RecordQuery(air, min_aircraft=2)) == {"CEN12FA004"}
    assert await _ids(services, RecordQuery(air, purpose="INST")) == {"CEN12LA001", "CEN12LA006"}
    assert await _ids(services, RecordQuery(air, far_part="135")) == {"CEN12LA005"}
    assert await _ids(services, RecordQuery(air, damage="destroyed")) == {
        "CEN12FA003",
        "CEN12FA004",
    }
    assert await _ids(services, RecordQuery(air, min_fatalities=2)) == {"CEN12FA003"}
    assert await _ids(services, RecordQuery(air, regions=("Arkansas", "Indiana"))) == {
        "CEN12LA001",
        "CEN12LA002",
    }


async def test_makes_and_models_are_read_per_aircraft(services: Services) -> None:
    air = "ntsb_report"
    piper = "PIPER|NEW PIPER"
    assert await _ids(services, RecordQuery(air, make=piper)) == {"CEN12FA004", "CEN12LA005"}
    pa28 = RecordQuery(air, make=piper, model="^PA-?28(?![0-9])")
    assert await _ids(services, pa28) == {"CEN12FA004", "CEN12LA005"}
    # the second aircraft of CEN12FA004 is a Cessna 182: a Piper 182 is none
    assert await _ids(services, RecordQuery(air, make=piper, model="^182(?![0-9])")) == set()
    cessna_182 = RecordQuery(air, make="CESSNA", model="^182(?![0-9])")
    assert await _ids(services, cessna_182) == {"CEN12FA004"}
    beech = RecordQuery(air, make="BEECH|BEECHCRAFT|HAWKER BEECHCRAFT")
    assert await _ids(services, beech) == {"CEN12LA006"}
    cessna = await count_records(services.store, RecordQuery(air, make="CESSNA"))
    assert cessna.matched == 4  # CEN12FA004's second aircraft is a Cessna


async def test_injury_levels_are_outcomes(services: Services) -> None:
    air = "ntsb_report"
    none = await count_records(services.store, RecordQuery(air, outcomes=("no_injuries",)))
    assert (none.matched, none.scope) == (2, 6)
    minor = await _ids(services, RecordQuery(air, outcomes=("minor_only",)))
    assert minor == {"CEN12LA002", "CEN12LA005"}
    worst = await _ids(services, RecordQuery(air, outcomes=("fatal_or_serious",)))
    assert worst == {"CEN12FA003", "CEN12FA004"}
    spared = await count_records(
        services.store, RecordQuery(air, outcomes=("not_fatal_or_serious",))
    )
    assert spared.matched == 4
    fatal = await count_records(services.store, RecordQuery(air, outcomes=("fatal",)))
    alive = await count_records(services.store, RecordQuery(air, outcomes=("not_fatal",)))
    assert fatal.matched and alive.matched + fatal.matched == alive.scope == 6


async def test_maritime_fields_filter_casualties(services: Services) -> None:
    sea = "casualty"
    assert await _ids(services, RecordQuery(sea, flags_any=("FRA", "ATG"))) == {"F1", "F2"}
    abs_ = RecordQuery(sea, class_society="American Bureau of Shipping")
    assert await _ids(services, abs_) == {"F1"}
    assert await _ids(services, RecordQuery(sea, min_ships=2)) == {"F2"}
    assert await _ids(services, RecordQuery(sea, min_tonnage=10_000)) == {"F1", "F4"}
    assert await _ids(services, RecordQuery(sea, dead_missing=("crew",))) == {"F1"}
    assert await _ids(services, RecordQuery(sea, dead_missing=("crew", "passengers"))) == {
        "F1",
        "F2",
    }
    tankers = RecordQuery(sea, vessel_families=("tanker",))
    assert await _ids(services, tankers) == {"F2"}
    assert await _ids(services, replace(tankers, vessel_kind="oil")) == {"F2"}
    assert await _ids(services, replace(tankers, vessel_kind="chemical")) == set()
    sinking = RecordQuery(sea, initial_event="sinking|sank|founder")
    assert await _ids(services, sinking) == {"F1", "F3"}  # "Foundering" and "Sinking" alike
    assert await _ids(services, RecordQuery(sea, initial_event="overboard")) == {"F4"}
    events = {
        "How many casualties began with a collision with another ship?": {"F2"},
        "How many casualties were collisions?": {"F2", "F5"},
        "How many casualties began with contact with a quay, bridge or other object?": {"F5"},
    }
    for question, expected in events.items():
        plan = count_plan(question)
        assert plan is not None and await _ids(services, plan.query) == expected, question
    dead = RecordQuery(sea, outcomes=("dead_or_missing",))
    assert await _ids(services, dead) == {"F1", "F2"}  # their consequences name no loss of life
    assert await _ids(services, RecordQuery(sea, outcomes=("loss_of_life",))) == set()


async def test_a_sea_area_is_read_from_the_recorded_location(services: Services) -> None:
    """ "in the North Sea" counts the casualties whose location names it, however cased."""
    plan = count_plan("How many casualties in the North Sea were collisions?")
    assert plan is not None and await _ids(services, plan.query) == {"F2"}
    plan = count_plan("How many casualties happened in the North Sea?")
    assert plan is not None and await _ids(services, plan.query) == {"F2", "F4"}
    assert await _ids(services, RecordQuery("casualty", area="baltic")) == {"F5"}


async def test_listed_years_count_those_years_only(services: Services) -> None:
    plan = count_plan("How many casualties were there in 1995 and 2001?")
    assert plan is not None and await _ids(services, plan.query) == {"F1", "F5"}  # not 1996


async def test_a_month_named_like_a_ship_is_counted_as_the_month(services: Services) -> None:
    """The registry holds a ship MAY; "casualties in May 2005" counts May's records, it is not
    refused as "no documents match the filters (vessel MAY ...)"."""
    state = await ask(services, "What is the number of ship casualties in May 2005?")
    answer = str(state["messages"][-1].content)
    assert state.get("counted") and first_number(answer) == 1, answer
    assert "in May 2005" in answer, answer


async def test_a_question_with_a_leading_clause_is_counted(services: Services) -> None:
    state = await ask(services, "In Ohio, how many accidents in 2012 killed 2 or more people?")
    answer = str(state["messages"][-1].content)
    assert state.get("counted") and first_number(answer) == 1, answer


async def test_months_of_any_year_split_the_records(services: Services) -> None:
    """Each dated record falls in one month; a season's months select their records only."""
    air = "ntsb_report"
    total = (await count_records(services.store, RecordQuery(air))).scope
    by_month = [
        (await count_records(services.store, RecordQuery(air, months=(m,)))).scope
        for m in range(1, 13)
    ]
    assert sum(by_month) == total and max(by_month) < total
    winter = await count_records(services.store, RecordQuery(air, months=(12, 1, 2)))
    assert winter.scope == by_month[11] + by_month[0] + by_month[1]
