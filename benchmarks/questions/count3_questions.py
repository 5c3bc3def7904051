"""The questions of count set 3, each in a user's own words with the conditions it counts.

Wording varies on purpose (tallies, "how often", "number of", typos); periods are years.
"""

from __future__ import annotations

from dataclasses import dataclass

import records5_imo as i
import records5_ntsb as n
from records5_fields import Cond
from records5_sets import Spec


@dataclass(frozen=True)
class Count:
    """One count question: its source, words and the conditions its records pass."""

    source: str
    question: str
    conds: tuple[Cond, ...]

    @property
    def spec(self) -> Spec:
        rule = f"{self.source}: {'; '.join(c.rule for c in self.conds)}"
        return Spec(self.source, self.question, rule, all(c.exact for c in self.conds))


def ntsb(question: str, *conds: Cond) -> Count:
    return Count("ntsb", question, conds)


def imo(question: str, *conds: Cond) -> Count:
    return Count("imo", question, conds)


_field, _years, _states = n.ntsb_field, n.ntsb_years, n.ntsb_states

NTSB = [
    ntsb("how many gyroplane accidents are in the NTSB data?", n.ntsb_category("GYRO")),
    ntsb(
        "Tally of Part 135 accidents and incidents in Alaska, 2012 through 2014?",
        _field("far_part", "135"),
        _states("Alaska"),
        _years(2012, 2014),
    ),
    ntsb(
        "How many Mooney crashes killed someone?",
        n.ntsb_make("MOONEY"),
        n.ntsb_fatal_at_least(1),
    ),
    ntsb(
        "In Florida, how often did an accident or incident happen in instrument conditions (IMC)?",
        _states("Florida"),
        _field("weather", "IMC"),
    ),
    ntsb(
        "Crop-dusting (aerial application) accidents in 2013 - how many?",
        _field("purpose", "AAPL"),
        _years(2013, 2013),
    ),
    ntsb(
        "Number of balloon accidents where the worst injury was serious?",
        n.ntsb_category("BALL"),
        _field("highest_injury", "Serious"),
    ),
    ntsb(
        "How many California accidents from 2011 to 2013 destroyed the aircraft?",
        _states("California"),
        _field("damage", "Destroyed"),
        _years(2011, 2013),
    ),
    ntsb(
        "count the December 2012 events for me",
        _years(2012, 2012),
        n.ntsb_months(12),
    ),
    ntsb(
        "Skydiving flights between 2011 and 2014: how many of them are in the records?",
        _field("purpose", "SKYD"),
        _years(2011, 2014),
    ),
    ntsb(
        "Robinson helicopters in Florida - how many accidents?",
        n.ntsb_make("ROBINSON"),
        _states("Florida"),
    ),
    ntsb(
        "Alaska, June to August 2013: how many fatal accidents?",
        _states("Alaska"),
        n.ntsb_months(6, 7, 8),
        _years(2013, 2013),
        n.ntsb_fatal_at_least(1),
    ),
    ntsb(
        "How many accidents killed three or more people?",
        n.ntsb_fatal_at_least(3),
    ),
    ntsb(
        "SR22s in IMC - how many accidents or incidents is that?",
        n.ntsb_model("CIRRUS", "SR22"),
        _field("weather", "IMC"),
    ),
    ntsb(
        "Instructional flights in 2014 where nobody was hurt worse than minor injuries "
        "(at least one minor injury): how many?",
        _field("purpose", "INST"),
        _years(2014, 2014),
        _field("highest_injury", "Minor"),
    ),
    ntsb("ferry flights: number of accidents?", _field("purpose", "FERY")),
    ntsb(
        "How many business flights in Texas ended up in the records?",
        _field("purpose", "BUS"),
        _states("Texas"),
    ),
    ntsb(
        "Hawaii, 2010 to 2012 - how many accidents and incidents?",
        _states("Hawaii"),
        _years(2010, 2012),
    ),
    ntsb("what's the total number of 2015 events in the dataset?", _years(2015, 2015)),
    ntsb(
        "Piper PA-18 Super Cubs in Alaska: how many accidents?",
        n.ntsb_model("PIPER", "PA18"),
        _states("Alaska"),
    ),
    ntsb(
        "How many weight-shift trike acidents were fatal?",
        n.ntsb_category("WSFT"),
        n.ntsb_fatal_at_least(1),
    ),
    ntsb("Glider accidents in 2011, how many?", n.ntsb_category("GLI"), _years(2011, 2011)),
]

IMO = [
    imo(
        "How many casualties in 2008 involved a Liberian-flagged ship?",
        i.imo_flag("LBR"),
        i.imo_years(2008, 2008),
    ),
    imo(
        "Maltese-flag ships, very serious casualties, 2014 to 2016: how many?",
        i.imo_flag("MLT"),
        i.imo_severity("Very serious"),
        i.imo_years(2014, 2016),
    ),
    imo(
        "How many collisions involved Hong Kong-registered ships?",
        i.imo_flag("HKG"),
        i.imo_initial("Collision", "collision"),
    ),
    imo(
        "In how many casualties were ten or more people dead or missing?",
        i.imo_dead_at_least(10),
    ),
    imo("How many casualties had three or more ships involved?", i.imo_ships_at_least(3)),
    imo(
        "Ships classed by Lloyd's Register, 2015-2019: number of casualties?",
        i.imo_society("Lloyd's Register"),
        i.imo_years(2015, 2019),
    ),
    imo(
        "Panama-flagged casualties that caused pollution - how many?",
        i.imo_flag("PAN"),
        i.imo_consequence("pollution"),
    ),
    imo(
        "how many bahamas flagged ships were a total loss?",
        i.imo_flag("BHS"),
        i.imo_consequence("total loss"),
    ),
    imo(
        "Count of less serious casualties in 1999?",
        i.imo_severity("Less serious"),
        i.imo_years(1999, 1999),
    ),
    imo(
        "How many casualties involved ships of 100,000 gross tonnage or more?",
        i.imo_tonnage_at_least(100000),
    ),
    imo(
        "In 2013, how many casualties started with a fire or explosion?",
        i.imo_initial("Fire or explosion", "fire"),
        i.imo_years(2013, 2013),
    ),
    imo(
        "Groundings of Greek-flagged ships: how many are recorded?",
        i.imo_flag("GRC"),
        i.imo_initial("Stranding / grounding", "grounding"),
    ),
    imo(
        "How many 2016 casualties involved loss of life?",
        i.imo_consequence("life"),
        i.imo_years(2016, 2016),
    ),
    imo(
        "Cyprus-flagged ships in 2000: how many casualties?",
        i.imo_flag("CYP"),
        i.imo_years(2000, 2000),
    ),
    imo(
        "How many very serious casualties were there in 2018 and 2019 together?",
        i.imo_severity("Very serious"),
        i.imo_years(2018, 2019),
    ),
    imo(
        "ABS-classed ships that were lost entirely: how many?",
        i.imo_society("American Bureau of Shipping"),
        i.imo_consequence("total loss"),
    ),
    imo(
        "In 2005, how many casualties involved exactly two ships?",
        i.imo_ships(2),
        i.imo_years(2005, 2005),
    ),
    imo(
        "How many casualties with passengers on board were there?",
        i.imo_passengers(),
    ),
    imo(
        "Maltese ships where someone was seriously injured - number of casualties?",
        i.imo_flag("MLT"),
        i.imo_consequence("injuries"),
    ),
]

QUESTIONS = NTSB + IMO
