"""Model names match however they are written, in retrieval and in the claim check."""

from __future__ import annotations

from answers.lines import missing_terms
from tests.fakes.clients import passage
from text.models import mentions_model, model_keys, searched_model_names, with_model_forms
from text.names import names_record
from tools.relevance import decide, rescued_by_names

RENO = passage(
    "a00000000001",
    "The airplane pitched up and impacted the ramp area near the grandstands.",
    title="WPR11MA454 2011-09-16 Reno, Nevada NORTH AMERICAN/AERO CLASSICS P-51D N79111",
)


def test_a_model_is_found_in_its_hyphenated_spaced_and_variant_forms() -> None:
    keys = model_keys("P-51D, PA-28-140, ASW-27, Boeing 737-800, A380 and R66 at 45 knots")
    for name in ("P-51", "P51D", "P 51D", "PA28", "PA-28", "ASW 27", "B-737", "737", "A-380"):
        assert mentions_model(name, keys), name
    assert mentions_model("R-66", keys)
    assert not mentions_model("P-38", keys)
    assert not mentions_model("45", keys)  # a count is no model


def test_the_claim_check_finds_the_p51d_for_a_p51_question() -> None:
    missing = missing_terms("How many people died in the Reno P-51 crash and why?", [RENO])
    assert missing.terms == [] and missing.salient == 2
    assert missing_terms("How many died in the Reno P-38 crash?", [RENO]).terms == ["P-38"]


def test_retrieval_searches_a_model_in_its_other_forms() -> None:
    assert with_model_forms("Why did the R-66 crash near Philip?").endswith(" R66")
    assert "ASW-27" in with_model_forms("Why did the ASW 27 crash?")
    assert with_model_forms("accidents in 2012") == "accidents in 2012"


def test_a_model_the_collection_holds_as_written_gets_no_other_forms() -> None:
    question = "Does PD-1 blockade help the PA28 pilots?"
    assert searched_model_names(question) == ["PD-1", "PA28"]
    assert with_model_forms(question, {"PD-1"}) == f"{question} PA-28"
    assert with_model_forms(question, {"PD-1", "PA28"}) == question
    assert with_model_forms(question).endswith(" PD1 PA-28")


def test_a_question_naming_the_best_record_is_not_stopped() -> None:
    kokhanok = passage(
        "b00000000002",
        "The pilot selected unsuitable terrain for takeoff.",
        title="ANC13CA073 2013-08-04 Kokhanok, Alaska CESSNA U206F N5364Q",
    )
    stopped = decide(0.03, 0.27, 0.1, empty=False)
    assert stopped["stopped"]
    question = "Why did the U-206F crash near Kokhanok?"
    assert names_record(question, kokhanok["title"])
    assert not rescued_by_names(stopped, question, [kokhanok])["stopped"]
    # One name is not enough, nor two when the record lacks one of them.
    assert rescued_by_names(stopped, "Why did Kokhanok flood?", [kokhanok])["stopped"]
    assert rescued_by_names(stopped, "Why did the P-38 crash near Kokhanok?", [kokhanok])["stopped"]


def test_the_claim_check_accepts_a_product_name_spelled_another_way() -> None:
    thread = passage(
        "a00000000001",
        "Sending to two USRP2/USRPN210 with tx_samples_from_file; the SBX-120 in my X310 and "
        "the GNURadio flowgraph.",
    )
    asked = "Why do two USRP2/N210 with an SBX in GNU Radio only transmit from one?"
    assert missing_terms(asked, [thread]).terms == []
    assert missing_terms("Does the B210 do it?", [passage("a00000000002", "the AB210")]).terms == [
        "B210"
    ]  # a letter or two before a model name is another model, not a product prefix


def test_the_claim_check_reads_a_plural_or_possessive_as_its_singular() -> None:
    """ "networked USRPs" is found in a passage that says "USRP" or "USRP's", and "the USRP" in
    one that says "USRPs"; a plural of a name the passage does not hold stays missing."""
    said = passage("a00000000003", "The USRP's MPM daemon fails when the N310 loses its address.")
    asked = "What usually makes the MPM daemon fail on networked USRPs?"
    assert missing_terms(asked, [said]).terms == []
    plural = passage("a00000000004", "Both USRPs and their N310s lost the MPM daemon.")
    assert missing_terms("Why does the MPM daemon fail on a USRP N310?", [plural]).terms == []
    assert missing_terms("Why do Octoclocks fail on USRPs?", [said]).terms == ["Octoclocks"]
