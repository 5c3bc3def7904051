"""Vessel families and classification societies across the spellings of the real records."""

from __future__ import annotations

import pytest

from archive.vessel_types import class_society, families_in, society_in, vessel_family


@pytest.mark.parametrize(
    ("spelled", "family"),
    [
        ("Bulk Carrier", "bulk carrier"),
        ("BULK CARRIER", "bulk carrier"),
        ("Bulk carrier", "bulk carrier"),
        ("Bulk Dry (general, ore) Carrier", "bulk carrier"),
        ("Bulk Dry / Oil Carrier", "bulk carrier"),
        ("OPEN-HATCH BULK CARRIER", "bulk carrier"),
        ("ORE CARRIER", "bulk carrier"),
        ("Oil Tanker", "tanker"),
        ("Chemical/Products Tanker", "tanker"),
        ("LIQUEFIED GAS TANKER", "tanker"),
        ("Container Ship (Fully Cellular)", "container ship"),
        ("CONTAINER SHIP", "container ship"),
        ("Fish Catching Vessel", "fishing vessel"),
        ("Stern Trawler", "fishing vessel"),
        ("FISHING", "fishing vessel"),
        ("Passenger Ship", "passenger ship"),
        ("Passenger/Cruise", "passenger ship"),
        ("Passenger / Ro-Ro Cargo Ship", "ro-ro passenger ship"),
        ("PASSENGER/RORO CARGO/FERRY", "ro-ro passenger ship"),
        ("Ro-Ro Cargo Ship", "ro-ro cargo ship"),
        ("VEHICLES CARRIER", "ro-ro cargo ship"),
        ("General Cargo Ship", "general cargo ship"),
        ("GENERAL CARGO", "general cargo ship"),
        ("Refrigerated Cargo Ship", "refrigerated cargo ship"),
        ("Towing / Pushing Tug", "tug"),
        ("Other Ships Structures", None),
        (None, None),
    ],
)
def test_type_spellings_fall_into_families(spelled: str | None, family: str | None) -> None:
    assert vessel_family(spelled) == family


@pytest.mark.parametrize(
    ("spelled", "society"),
    [
        ("Lloyd's Register (LR)", "Lloyd's Register"),
        ("Lloyds Register of  Shipping", "Lloyd's Register"),
        ("American Bureau of Shipping (ABS)", "American Bureau of Shipping"),
        ("DNV AS (DNV)", "DNV"),
        ("DNV GL AS (DNVGL)", "DNV"),
        ("Det Norske Veritas (DNV)", "DNV"),
        ("Bureau Veritas (BV)", "Bureau Veritas"),
        ("Nippon Kaiji Kyokai (NKK)", "ClassNK"),
        ("RINA Services S.p.A (RINA)", "RINA"),
        ("Korean Register (KR)", "Korean Register"),
        ("China Classification Society (CCS)", "China Classification Society"),
        ("Indian Register of Shipping (IRS)", "Indian Register of Shipping"),
        ("Germanischer Lloyd (GL)", "Germanischer Lloyd"),
        ("Turkish Lloyd (TL)", "Turkish Lloyd"),
        ("[No class]", None),
    ],
)
def test_class_entries_name_their_society(spelled: str, society: str | None) -> None:
    assert class_society(spelled) == society


def test_questions_name_families_and_societies() -> None:
    assert families_in("Groundings of bulk carriers") == (("bulk carrier",), "bulk carriers")
    assert families_in("any RoPax fires?") == (("ro-ro passenger ship",), "RoPax")
    assert families_in("ferries that capsized") == (
        ("passenger ship", "ro-ro passenger ship"),
        "ferries",
    )
    assert families_in("a crack in the cylinder liner") is None
    assert society_in("ships classed by Lloyd's Register") == (
        "Lloyd's Register",
        "Lloyd's Register",
    )
    assert society_in("classed by ABS") == ("American Bureau of Shipping", "ABS")
    assert society_in("the abs sensor failed") is None
    assert society_in("ClassNK surveys") == ("ClassNK", "ClassNK")
