"""Pattern answers: a set's statements grouped into named groups found in the statements
themselves, counted once per incident, answered with the set and cited examples."""

from __future__ import annotations

import pytest

from agent.evaluation.pattern_score import PatternGold, groups_of, measure_pattern
from answers.counting import kind_stems
from answers.pattern_groups import (
    OTHER,
    Statement,
    glue_stems,
    group_categories,
    group_phrases,
    grouped_words,
    proper_stems,
)
from answers.patterns import compose_pattern, pattern_plan, statements_of
from answers.patterns import groups_of as cause_groups
from archive.store.passages import Passage
from graph.nodes.classify_intent import classify_intent
from tests.fakes.chat import ScriptedChatModel


def _passage(doc: str, text: str, kind: str = "ntsb_report") -> Passage:
    return Passage(  # type: ignore[typeddict-item]
        chunk_id=f"{doc:0>12}"[-12:], doc_id=doc, title=f"REC-{doc}", text=text, kind=kind
    )


CAUSES = {
    "a1": "The pilot's total loss of engine power due to fuel exhaustion.",
    "a2": "A loss of engine power for reasons that could not be determined.",
    "a3": "The loss of engine power due to carburetor icing.",
    "b1": "The pilot's failure to maintain directional control during the landing roll.",
    "b2": "The pilot's failure to maintain directional control in a gusting crosswind.",
    "c1": "A bird struck the windshield.",
}


def _statements(causes: dict[str, str]) -> list[Statement]:
    return [Statement(doc, text, _passage(doc, text)) for doc, text in causes.items()]


def test_free_text_causes_group_by_the_phrases_they_share() -> None:
    groups = group_phrases(_statements(CAUSES), glue={"pilot", "failur"})
    named = {g.name: sorted(m.item for m in g.members) for g in groups}
    assert named["Loss of engine power"] == ["a1", "a2", "a3"]
    assert named["Maintain directional control"] == ["b1", "b2"]
    assert named[OTHER] == ["c1"]  # the rest, last
    assert groups[-1].name == OTHER and sum(g.count for g in groups) == len(CAUSES)


def test_one_incident_told_by_several_statements_counts_once() -> None:
    statements = _statements(CAUSES) + [
        Statement("a1", "Another loss of engine power was found.", _passage("a1", "x"))
    ]
    groups = group_phrases(statements, glue={"pilot", "failur"})
    engine = next(g for g in groups if g.name == "Loss of engine power")
    assert engine.count == 3 and [m.item for m in engine.members].count("a1") == 1


def test_words_of_the_question_and_glue_name_no_group() -> None:
    causes = {f"r{i}": f"The pilot's failure to maintain control on landing {i}." for i in range(5)}
    groups = group_phrases(_statements(causes), ignore={"land"})
    assert all("landing" not in g.name.lower() for g in groups)
    reference = [*CAUSES.values()] * 4
    assert "pilot" in glue_stems(reference, share=0.4)
    assert "bird" not in glue_stems(reference, share=0.4)
    assert glue_stems(CAUSES.values(), share=0.4) == set()  # too few to tell glue


def test_recorded_categories_group_by_value_with_spellings_merged() -> None:
    events = {"c1": "Collision", "c2": "COLLISION", "c3": "Foundered", "c4": "Foundering"}
    statements = [Statement(k, v, _passage(k, "", "casualty")) for k, v in events.items()]
    groups = group_categories(statements)
    assert [(g.name, g.count) for g in groups] == [("Collision", 2), ("Foundered", 2)]
    several = [
        Statement("c1", "Loss of life,Total loss of the ship", _passage("c1", "", "casualty")),
        Statement("c2", "Loss of life", _passage("c2", "", "casualty")),
    ]
    counted = {g.name: g.count for g in group_categories(several, several=True)}
    assert counted == {"Loss of life": 2, "Total loss of the ship": 1}


def test_the_answer_states_the_set_and_each_group_with_its_count_and_examples() -> None:
    pattern = pattern_plan("What are the most common causes of accidents?")
    assert pattern is not None
    found = [(_passage(doc, text), text) for doc, text in CAUSES.items()]
    statements = statements_of(pattern, found)
    groups = group_phrases(statements, glue={"pilot", "failur"})
    answer = compose_pattern(pattern, 7, groups)
    assert answer.startswith("7 accident records are in the archive; 6 of them record a probable")
    assert "- **Loss of engine power** — 3 of 6 (50%)" in answer
    citations = [{"id": p["chunk_id"], "doc_id": p["doc_id"]} for p, _ in found]
    measured = measure_pattern(answer, citations, PatternGold(size=7, dominant="engine power"))
    assert measured == {
        "named_groups": True,
        "set_stated": True,
        "examples": True,
        "dominant": True,
        "pattern_ok": True,
    }


def test_the_scorer_fails_answers_without_groups_examples_or_the_dominant_group() -> None:
    listing = "- REC-1: The pilot lost control [C:000000000001]\n- REC-2: A bird [C:000000000002]"
    assert groups_of(listing) == []
    named_with_digits = "- **10MHz REF** — 3 of 8\n- X310 firmware: 2 [C:000000000001]"
    assert [(g.name, g.count) for g in groups_of(named_with_digits)] == [
        ("10MHz REF", 3),
        ("X310 firmware", 2),
    ]
    one_example = "52 records.\n- **Loss of engine power** — 14 of 52\n  - X [C:000000000001]"
    citations = [{"id": "000000000001", "doc_id": "d1"}]
    measured = measure_pattern(one_example, citations, PatternGold(size=52, dominant="fuel"))
    assert not measured["named_groups"] and not measured["examples"]
    assert not measured["dominant"] and measured["set_stated"] and not measured["pattern_ok"]
    close = PatternGold(size=100, exact=False)
    assert measure_pattern("103 records", [], close)["set_stated"]
    assert not measure_pattern("110 records", [], close)["set_stated"]


@pytest.mark.parametrize(
    ("question", "kind", "about", "topic"),
    [
        ("What are the common initial events of casualties involving bulk carriers?",
         "casualty", "cause", ""),
        ("What are the usual consequences of collisions involving tankers?",
         "casualty", "outcome", ""),
        ("common causes of fatal landing accidents", "ntsb_report", "cause", "landing"),
        ("What usually goes wrong in Cessna accidents involving fuel exhaustion?",
         "ntsb_report", "cause", "fuel exhaustion"),
        ("What are the recurring findings of TAIC marine inquiries involving fire?",
         "investigation_report", "finding", "fire"),
    ],
)  # fmt: skip
def test_pattern_questions_resolve_their_set(
    question: str, kind: str, about: str, topic: str
) -> None:
    pattern = pattern_plan(question)
    assert pattern is not None
    assert (pattern.plan.query.kind, pattern.about, pattern.topic) == (kind, about, topic)


@pytest.mark.parametrize(
    "question",
    [
        "How many fatal accidents happened in Texas?",  # a count
        "What caused the accident CEN12LA244?",  # one record
        "What is the usual procedure for bunkering?",  # no record set asked about
        "What are the most common causes of headaches?",
    ],
)
def test_other_questions_are_no_patterns(question: str) -> None:
    assert pattern_plan(question) is None


@pytest.mark.parametrize(
    "question",
    ["common causes of fatal accidents in Arizona", "How many casualties involved tankers?"],
)
async def test_a_pattern_or_count_of_records_is_a_question_whatever_a_classifier_says(
    question: str,
) -> None:
    """A model (or embedding classifier) that calls it chit-chat is not asked: the question
    goes to the archive, so the whole set is answered, not a reply about the assistant."""
    model = ScriptedChatModel.replying("general")
    state = await classify_intent({"brief": question}, embeddings=None, model=model)
    assert state["intent"] == "factual_query" and model.calls == []
    assert state["diagnostics"]["intent_source"] == "records"


def test_one_cause_worded_in_two_orders_is_one_group() -> None:
    causes = {
        "r1": "The pilot's failure to maintain airplane control.",
        "r2": "The pilot's failure to maintain airplane control in gusts.",
        "r3": "The pilot's failure to maintain control of the airplane.",
        "r4": "The pilot's failure to maintain control of the airplane at night.",
    }
    groups = group_phrases(_statements(causes), glue={"pilot", "failur"})
    assert [(g.count, sorted(m.item for m in g.members)) for g in groups] == [
        (4, ["r1", "r2", "r3", "r4"])
    ]


def test_one_casualty_reported_twice_is_one_incident() -> None:
    pattern = pattern_plan("What are the common initial events of casualties of tankers?")
    assert pattern is not None
    found = []
    for doc in ("c1", "c2", "c3"):
        passage = _passage(doc, "", "casualty")
        passage["vessel_name"] = "SEA SWALLOW" if doc != "c3" else "OTHER"
        passage["date"] = "2001-07-27"
        found.append((passage, "Sinking"))
    groups = group_categories(statements_of(pattern, found))
    assert [(g.name, g.count) for g in groups] == [("Sinking", 2)]


def test_no_group_is_smaller_than_the_least_a_group_holds() -> None:
    causes = {
        "r1": "The pilot's failure to maintain airspeed in the pattern.",
        "r2": "The pilot's failure to maintain airspeed.",
        "r3": "A bird struck the windshield.",
    }
    groups = group_phrases(_statements(causes), glue={"pilot", "failur"})
    assert [g.count for g in groups if g.name != OTHER] == [2]


def test_places_and_what_the_records_are_name_no_cause_group() -> None:
    findings = {
        f"t{i}": f"The operator in New Zealand did not apply its fatigue risk management plan {i}."
        for i in range(4)
    }
    findings |= {f"h{i}": f"The helicopter struck wires at low level, case {i}." for i in range(5)}
    statements = _statements(findings)
    names = proper_stems(findings.values())
    assert {"new", "zealand"} <= names and "fatigu" not in names
    plan = pattern_plan("most common causes of accidents")
    assert plan is not None
    groups = cause_groups(plan, statements, [])
    named = [g.name.lower() for g in groups if g.name != OTHER]
    assert not any("zealand" in n for n in named)
    assert "helicopter" not in named  # a category is what a record is, not why
    assert kind_stems(["the helicopter and the bulk carrier"]) >= {"helicopt", "bulk", "carrier"}


def test_a_group_that_says_less_than_an_earlier_one_joins_it() -> None:
    causes = {f"a{i}": f"The loss of airplane control in turbulence {i}." for i in range(4)}
    causes |= {f"b{i}": f"A loss of control after the stall, case {i}." for i in range(3)}
    causes |= {f"c{i}": f"The loss of engine power due to icing {i}." for i in range(3)}
    causes |= {f"d{i}": f"A loss of engine, {i}." for i in range(2)}
    groups = group_phrases(_statements(causes), glue={"case"}, kinds={"airplan"})
    counts = {g.name: g.count for g in groups}
    # "loss of control" joined it, named as every example says it
    assert counts["Loss of control"] == 7, counts
    assert counts["Loss of engine power"] == 5, counts  # "loss of engine" joined it


def test_a_word_of_an_earlier_groups_name_is_no_group_of_its_own() -> None:
    causes = {f"n{i}": f"The network interface dropped frames {i}." for i in range(3)}
    causes |= {"v1": "The verilog interface was deleted.", "v2": "An interface timing error."}
    groups = group_phrases(_statements(causes), glue=set())
    names = [g.name for g in groups if g.name != OTHER]
    assert names[0].startswith("Network interface")
    assert "Interface" not in names, names  # it would only repeat the first group's name


def _said(texts: list[str]) -> list[Statement]:
    return [Statement(f"t{i}", t, _passage(f"t{i}", t, "email")) for i, t in enumerate(texts)]


def _named(groups: list) -> list[str]:  # type: ignore[type-arg]
    return [g.name for g in groups if g.name != OTHER]


def test_a_tight_phrase_is_words_written_together_within_one_clause() -> None:
    """Two replies that say "pins … high" a few words apart, or "firmware, power" across a
    comma, share no thing; a record's formulaic wording may be read loosely."""
    apart = _said(
        [
            "If you want any pins to be high, then mask and value must be set.",
            "Set pin 3 high to drive the line.",
        ]
    )
    across = _said(
        [
            "Update the firmware, power supplies rarely fail.",
            "The firmware power management was at fault.",
        ]
    )
    for statements in (apart, across):
        loose = group_phrases(statements, glue=set(), shortest=2)
        assert _named(loose), "the loose reading groups them"
        assert _named(group_phrases(statements, glue=set(), shortest=2, tight=True)) == []
    together = _said(["Use the DRAM FIFO for that rate.", "The DRAM FIFO overflowed."])
    assert _named(group_phrases(together, glue=set(), tight=True)) == ["Dram fifo"]
    of = _said(["A loss of lock after warm-up.", "The loss of lock is the GPSDO."])
    assert _named(group_phrases(of, glue=set(), tight=True)) == ["Loss of lock"]


def test_a_contraction_is_no_word_of_a_phrase() -> None:
    words = grouped_words("If you're not using it, I've been testing; it doesn't lock.")
    assert not {"re", "ve", "doesn"} & set(words), words
    assert "pilot" in grouped_words("The pilot's failure to maintain control.")
    statements = _said(["If you're not sure, ask.", "Unless you're using timed commands, wait."])
    assert _named(group_phrases(statements, glue=set(), shortest=2, tight=True)) == []


def test_a_preferred_phrase_names_its_group_among_equals() -> None:
    same = "Set the MTU to 9000 so jumbo frames reach the host."
    statements = _said([same, same])
    plain = _named(group_phrases(statements, glue=set(), tight=True))
    preferred = _named(
        group_phrases(statements, glue=set(), tight=True, prefer=lambda p: "mtu" in p)
    )
    assert plain and not plain[0].casefold().startswith("set the mtu"), plain
    assert [n.casefold() for n in preferred] == ["set the mtu"], preferred


def test_a_joined_group_keeps_a_name_true_of_every_example() -> None:
    """Items that say "maintain control" joining the "maintain directional control" group do
    not say directional: the group is named "maintain control"; items that say "loss of
    engine" joining "loss of engine power" leave the name whole (its last word completes it)."""
    causes = [
        "The pilot's failure to maintain directional control during landing.",
        "The pilot's failure to maintain directional control in a crosswind.",
        "The pilot's failure to maintain directional control on the wet runway.",
        "The pilot's failure to maintain control during the go-around.",
        "The pilot's failure to maintain control in turbulence.",
    ]
    statements = [Statement(f"r{i}", c, _passage(f"r{i}", c)) for i, c in enumerate(causes)]
    named = {g.name: g.count for g in group_phrases(statements, glue={"pilot", "failur"})}
    assert named == {"Maintain control": 5}, named
    power = [
        "A total loss of engine power due to fuel exhaustion.",
        "A partial loss of engine power due to carburetor ice.",
        "A loss of engine power for undetermined reasons.",
        "The loss of engine torque after a bearing failure.",
        "A loss of engine oil pressure.",
    ]
    statements = [Statement(f"p{i}", c, _passage(f"p{i}", c)) for i, c in enumerate(power)]
    named = {g.name: g.count for g in group_phrases(statements, glue=set())}
    assert named.get("Loss of engine power") == 5, named


def test_a_name_joined_by_one_that_says_less_is_the_name_true_of_both() -> None:
    from answers.pattern_groups import _joined_name

    # a qualifier of a word both say: the joined items do not say it
    assert _joined_name("Maintain directional control", "Maintain control", set()) == (
        "Maintain control"
    )
    # a last word that completes the phrase, or a word of what the records are: the name stays
    assert _joined_name("Loss of engine power", "Loss of engine", set()) == "Loss of engine power"
    assert _joined_name("Loss of airplane control", "Loss of control", {"airplan"}) == (
        "Loss of airplane control"
    )


def test_a_possessive_in_a_name_keeps_its_apostrophe() -> None:
    causes = [
        "The flight instructor's delayed remedial action during the autorotation.",
        "The flight instructor’s delayed remedial action and inadequate supervision.",
    ]
    statements = [Statement(f"f{i}", c, _passage(f"f{i}", c)) for i, c in enumerate(causes)]
    names = _named(group_phrases(statements, glue=set(), shortest=2))
    assert names and "instructor’s" in names[0] and " s " not in names[0], names
