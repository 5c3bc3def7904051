"""The questions of record pattern set 5, each in a user's own words with the conditions it asks.

Typos and loose wording are deliberate: users write that way. Periods are written as years.
"""

from __future__ import annotations

from dataclasses import dataclass

import records5_imo as i
import records5_ntsb as n
import records5_taic as t
from records5_fields import Cond
from records5_sets import Spec


@dataclass(frozen=True)
class Pattern:
    """One pattern question: its source, words, conditions and what its groups are."""

    source: str
    question: str
    conds: tuple[Cond, ...]
    by: str

    @property
    def spec(self) -> Spec:
        rule = f"{self.source}: {'; '.join(c.rule for c in self.conds)}; by {self.by}"
        return Spec(self.source, self.question, rule, all(c.exact for c in self.conds))


def ntsb(question: str, *conds: Cond) -> Pattern:
    return Pattern("ntsb", question, conds, "cause")


def imo(question: str, *conds: Cond, by: str = "event") -> Pattern:
    return Pattern("imo", question, conds, by)


def taic(question: str, *conds: Cond) -> Pattern:
    return Pattern("taic", question, conds, "kind")


_field, _years, _states = n.ntsb_field, n.ntsb_years, n.ntsb_states

NTSB = [
    ntsb(
        "I teach flying. Looking at the 2012 instructional flights in the records, where do "
        "students and instructors usually come unstuck?",
        _field("purpose", "INST"),
        _years(2012, 2012),
    ),
    ntsb(
        "What tends to cause the on-demand / commuter (Part 135) mishaps in this data?",
        _field("far_part", "135"),
    ),
    ntsb(
        "for the airline side of things (part 121 operations), what keeps showing up as the "
        "cause of the events?",
        _field("far_part", "121"),
    ),
    ntsb(
        "Jump planes: when a skydiving flight ends badly, what's usually behind it?",
        _field("purpose", "SKYD"),
    ),
    ntsb(
        "Any recurring theme in why glider accidents happen?",
        n.ntsb_category("GLI"),
    ),
    ntsb(
        "gyrocopter crashes - what goes wrong most of the time?",
        n.ntsb_category("GYRO"),
    ),
    ntsb(
        "I'm thinking of buying a weight-shift trike. What typically causes their accidents?",
        n.ntsb_category("WSFT"),
    ),
    ntsb(
        "In 2010 and 2011, when the aircraft was completely destroyed, what had usually led to it?",
        _field("damage", "Destroyed"),
        _years(2010, 2011),
    ),
    ntsb(
        "Break down the causes of the really deadly accidents, the ones where three or more "
        "people died.",
        n.ntsb_fatal_at_least(3),
    ),
    ntsb(
        "Summer flying in Alaska (June through August, 2012 to 2014): what were the usual "
        "reasons things went wrong?",
        _states("Alaska"),
        n.ntsb_months(6, 7, 8),
        _years(2012, 2014),
    ),
    ntsb(
        "what about alaska in the dead of winter, december to february - common causes?",
        _states("Alaska"),
        n.ntsb_months(12, 1, 2),
    ),
    ntsb(
        "Snowbird season in Florida (Dec, Jan, Feb): what's the typical story behind the "
        "accidents and incidents there?",
        _states("Florida"),
        n.ntsb_months(12, 1, 2),
    ),
    ntsb(
        "Cirrus SR22 owners here. What do the reports say goes wrong with our airplanes?",
        n.ntsb_model("CIRRUS", "SR22"),
    ),
    ntsb(
        "Piper Super Cub (PA-18) wrecks: is there a pattern to them?",
        n.ntsb_model("PIPER", "PA18"),
    ),
    ntsb(
        "Beech A36 Bonanza accidents - what are the main causes according to NTSB?",
        n.ntsb_model("BEECH", "A36"),
    ),
    ntsb(
        "Mooneys: what usually brings them down, going by the probable causes?",
        n.ntsb_make("MOONEY"),
    ),
    ntsb(
        "Robinson R44 accidents... what are the typical causes?",
        n.ntsb_model("ROBINSON", "R44"),
    ),
    ntsb(
        "When two or more aircraft were involved in the same event, what was usually the cause?",
        n.ntsb_several_aircraft(),
    ),
    ntsb(
        "For business trips flown by the pilot, what kinds of problems usually caused the mishaps?",
        _field("purpose", "BUS"),
    ),
    ntsb(
        "Repositioning flights (no passengers, just moving the aircraft): what goes wrong on "
        "those?",
        _field("purpose", "POSI"),
    ),
    ntsb(
        "ferry flight accidents, what's the usual cause?",
        _field("purpose", "FERY"),
    ),
    ntsb(
        "What typically goes wrong during takeoff or the initial climb?",
        n.ntsb_text("takeoff", r"during (?:the )?(?:takeoff|initial climb)"),
    ),
    ntsb(
        "Personal flights in Colorado: any common threads in what went wrong?",
        _states("Colorado"),
        _field("purpose", "PERS"),
    ),
    ntsb(
        "Give me the usual causes for Arizona between 2013 and 2015.",
        _states("Arizona"),
        _years(2013, 2015),
    ),
    ntsb(
        "New England (CT, ME, MA, NH, RI, VT): what goes wrong most often up there?",
        _states(
            "Connecticut", "Maine", "Massachusetts", "New Hampshire", "Rhode Island", "Vermont"
        ),
    ),
    ntsb(
        "Floatplanes and seaplanes - what do their mishaps have in common?",
        n.ntsb_text("float", r"\bfloat(?:plane|s)?\b|seaplane"),
    ),
    ntsb(
        "tailwheel / taildragger trouble: what's the most common cause, and what else shows up?",
        n.ntsb_text("tailwheel", r"tailwheel|tail wheel|taildragger"),
    ),
    ntsb(
        "Mountain West question: in Idaho, Montana and Wyoming, what usually causes the "
        "wrecks and close calls?",
        _states("Idaho", "Montana", "Wyoming"),
    ),
    ntsb(
        "Hawaii: what were the main causes of the events in the islands?",
        _states("Hawaii"),
    ),
    ntsb(
        "Along the Gulf coast (Louisiana, Mississippi, Alabama), what caused the accidents "
        "and incidents?",
        _states("Louisiana", "Mississippi", "Alabama"),
    ),
    ntsb(
        "Helicopter accidents in 2014 and 2015: what were the most frequent causes?",
        n.ntsb_category("HELI"),
        _years(2014, 2015),
    ),
    ntsb(
        "Banner towing - what usually goes wrong?",
        _field("purpose", "BANT"),
    ),
    ntsb(
        "Looking only at October to December 2013, what were the recurring causes?",
        _years(2013, 2013),
        n.ntsb_months(10, 11, 12),
    ),
    ntsb(
        "The 2015 reports in here: what is the dominant cause?",
        _years(2015, 2015),
    ),
    ntsb(
        "Hughes helicopters (269/369 etc.): why do they crash, mostly?",
        n.ntsb_make("HUGHES"),
    ),
    ntsb(
        "Maule accidents, common cuases?",
        n.ntsb_make("MAULE"),
    ),
]

IMO = [
    imo(
        "Fishing boats from 2011 to 2019: what usually went wrong first?",
        i.imo_ship("fishing"),
        i.imo_years(2011, 2019),
    ),
    imo(
        "what were fishing vessels' typical casualties between 2005 and 2010?",
        i.imo_ship("fishing"),
        i.imo_years(2005, 2010),
    ),
    imo(
        "Container ships: what kind of casualty do they have most?",
        i.imo_ship("container"),
    ),
    imo(
        "For passenger ships and ferries, what are the most common kinds of casualty?",
        i.imo_ship("passenger"),
    ),
    imo(
        "Panama-flagged ships, 2012 through 2016 - what usually happened to them?",
        i.imo_flag("PAN"),
        i.imo_years(2012, 2016),
    ),
    imo(
        "Liberian flag casualties: is there a typical initial event?",
        i.imo_flag("LBR"),
    ),
    imo(
        "Ships under the Bahamas flag - what goes wrong most often?",
        i.imo_flag("BHS"),
    ),
    imo(
        "German-flag vessels: what is the usual first event in their casualties?",
        i.imo_flag("DEU"),
    ),
    imo(
        "Japanese ships in the IMO data: common casualty types?",
        i.imo_flag("JPN"),
    ),
    imo(
        "Korean-registered vessels - which kinds of casualties keep coming up?",
        i.imo_flag("KOR"),
    ),
    imo(
        "Of the casualties rated less serious, what usually happened?",
        i.imo_severity("Less serious"),
    ),
    imo(
        "Ships classed with Nippon Kaiji Kyokai: what are their typical casualties?",
        i.imo_society("Nippon Kaiji"),
    ),
    imo(
        "In the Baltic, what tends to go wrong for ships?",
        i.imo_location("baltic", r"baltic"),
    ),
    imo(
        "South and East China Sea casualties: the usual pattern?",
        i.imo_location("china seas", r"(?:south|east) china sea"),
    ),
    imo(
        "On rivers, what kinds of casualties are most common?",
        i.imo_location("river", r"river"),
    ),
    imo(
        "When somebody died or went missing, what was usually the event?",
        i.imo_dead_at_least(1),
    ),
    imo(
        "English Channel: what usually goes wrong there?",
        i.imo_location("channel", r"english channel|dover"),
    ),
    imo(
        "What follows when a ship catches fire - what are the usual consequences?",
        i.imo_event("fire"),
        by="consequence",
    ),
    imo(
        "After a grounding, what usually becomes of the ship?",
        i.imo_event("grounding"),
        by="consequence",
    ),
    imo(
        "what happens after ships collide, typically?",
        i.imo_event("collision"),
        by="consequence",
    ),
    imo(
        "When a vessel capsizes or lists, what are the consequences most of the time?",
        i.imo_event("capsizing"),
        by="consequence",
    ),
    imo(
        "Machinery damage casualties: what's the usual outcome for the ship?",
        i.imo_event("machinery"),
        by="consequence",
    ),
    imo(
        "Fires on fishing vessels: what usually comes of them?",
        i.imo_event("fire"),
        i.imo_ship("fishing"),
        by="consequence",
    ),
    imo(
        "Tankers in collisions - what were the consequences, mostly?",
        i.imo_event("collision"),
        i.imo_ship("tanker"),
        by="consequence",
    ),
    imo(
        "Very serious groundings: what followed, typically?",
        i.imo_event("grounding"),
        i.imo_severity("Very serious"),
        by="consequence",
    ),
    imo(
        "When the hull fails (or watertight doors), how does it usually end?",
        i.imo_event("hull"),
        by="consequence",
    ),
]

TAIC = [
    taic(
        "NZ rail occurrences TAIC looked at from 2010 to 2012: what kept going wrong?",
        t.taic_mode("rail"),
        t.taic_years(2010, 2012),
    ),
    taic(
        "Rail inquiries 2016-2018 - main kinds of occurrence?",
        t.taic_mode("rail"),
        t.taic_years(2016, 2018),
    ),
    taic(
        "What were the common rail problems TAIC investigated between 2013 and 2017?",
        t.taic_mode("rail"),
        t.taic_years(2013, 2017),
    ),
    taic(
        "Across all of TAIC's rail reports, what type of occurrence comes up most?",
        t.taic_mode("rail"),
    ),
    taic(
        "For TAIC's rail investigations in 2015-2020, what usually happened?",
        t.taic_mode("rail"),
        t.taic_years(2015, 2020),
    ),
    taic(
        "Aviation inquiries by TAIC from 2017 to 2020: what were they mostly about?",
        t.taic_mode("aviation"),
        t.taic_years(2017, 2020),
    ),
    taic(
        "what did the 2019 and 2020 NZ aviation reports mostly deal with?",
        t.taic_mode("aviation"),
        t.taic_years(2019, 2020),
    ),
    taic(
        "Marine accidents TAIC investigated in 2016-2018: common kinds?",
        t.taic_mode("marine"),
        t.taic_years(2016, 2018),
    ),
    taic(
        "NZ maritime inquiries since 2013 (up to 2020): what usually went wrong?",
        t.taic_mode("marine"),
        t.taic_years(2013, 2020),
    ),
    taic(
        "Rail, 2011 to 2015: which kinds of occurrences did the Commission keep investigating?",
        t.taic_mode("rail"),
        t.taic_years(2011, 2015),
    ),
    taic(
        "TAIC rail reports from 2017 through 2020 - the usual occurrence?",
        t.taic_mode("rail"),
        t.taic_years(2017, 2020),
    ),
    taic(
        "Mid-decade railway trouble in NZ (2014, 2015, 2016): what did TAIC mostly look into?",
        t.taic_mode("rail"),
        t.taic_years(2014, 2016),
    ),
]

QUESTIONS = NTSB + IMO + TAIC
