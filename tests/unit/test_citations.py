"""Citation markers: extraction, validation against retrieval and the archive, numbering."""

from __future__ import annotations

from collections.abc import Sequence

from answers.citations import marker_ids, number_markers, uncited_statements, validate
from archive.store.passages import Passage
from tests.fakes.clients import passage


def record(chunk_id: str, path: str | None = None) -> Passage:
    return passage(
        chunk_id,
        "...",
        doc_id="d" + chunk_id[1:],
        kind="email",
        source_id="<m@x>",
        title="Crack report",
        page=2,
        date="2019-05-02",
        sender="chief@x",
        subject="RE: crack",
        archive_path=path or f"email/{chunk_id}/a.eml",
        bm25=1.0,
        cosine=0.5,
        score=1.0,
        rerank=0.9,
    )


GOOD, OTHER, GONE = "3f9a1c0b7e21", "0123456789ab", "aaaaaaaaaaaa"
RETRIEVED = {cid: record(cid) for cid in (GOOD, OTHER, GONE)}
checked: list[list[str]] = []


async def exists(paths: list[str]) -> Sequence[bool]:
    checked.append(paths)
    return [GONE not in p for p in paths]


def test_markers_tolerate_whitespace_and_case() -> None:
    assert marker_ids("a [C:3f9a1c0b7e21] b [ c : 3F9A1C0B7E21 ] c [C: xyz ]") == [GOOD, "xyz"]


async def test_valid_citations_are_kept_and_carry_their_payload() -> None:
    check = await validate(
        f"Crack found [ C : {GOOD.upper()} ]. Fixed [C:{OTHER}].", RETRIEVED, exists
    )
    assert check.text == f"Crack found [C:{GOOD}]. Fixed [C:{OTHER}]."
    assert [c["id"] for c in check.citations] == [GOOD, OTHER]
    assert [c["number"] for c in check.citations] == [1, 2]
    first = check.citations[0]
    assert first["archive_path"] == f"email/{GOOD}/a.eml"
    assert first["title"] == "Crack report" and first["date"] == "2019-05-02"
    assert not check.flagged


async def test_forged_malformed_and_missing_citations_are_stripped() -> None:
    text = f"A [C:{GOOD}][C:{GOOD}]. B [C:ffffffffffff]. C [C:12345]. D [C:{GONE}]. E [C:{GOOD}]."
    check = await validate(text, RETRIEVED, exists)
    assert check.text == f"A [C:{GOOD}]. B. C. D. E [C:{GOOD}]."
    assert check.reasons == {
        "ffffffffffff": "not retrieved",
        "12345": "malformed",
        GONE: "original missing from the archive",
    }
    assert check.summary()["total"] == 4 and check.summary()["invalid"] == 3
    assert check.flagged  # 3 of 4 invalid


async def test_half_invalid_is_not_flagged() -> None:
    check = await validate(f"A [C:{GOOD}]. B [C:ffffffffffff].", RETRIEVED, exists)
    assert not check.flagged


async def test_archive_checks_are_batched_once() -> None:
    checked.clear()
    await validate(f"[C:{GOOD}] [C:{OTHER}] [C:{GOOD}]", RETRIEVED, exists)
    assert checked == [[f"email/{GOOD}/a.eml", f"email/{OTHER}/a.eml"]]


async def test_an_uncited_answer_is_flagged_without_an_archive_call() -> None:
    checked.clear()
    check = await validate("No citations here.", RETRIEVED, exists)
    assert check.total == 0 and checked == []
    assert check.uncited and check.flagged  # cite or say so: nothing to verify is flagged
    assert check.summary()["uncited"] is True


async def test_only_invalid_markers_are_uncited_and_flagged() -> None:
    check = await validate("Made up [C:ffffffffffff].", RETRIEVED, exists)
    assert check.uncited and check.flagged and check.text == "Made up."


async def test_numbered_rendering() -> None:
    check = await validate(f"A [C:{OTHER}]. B [C:{GOOD}]. C [C:{OTHER}].", RETRIEVED, exists)
    assert number_markers(check.text, check.citations) == "A [1]. B [2]. C [1]."


def test_uncited_statements_are_the_sentences_without_a_marker() -> None:
    answer = (
        "The crack was found during the inspection [C:265a87cb330d]. The preheater was out of "
        "service. The liner was replaced. [C:aaaaaaaaaaaa] Was it tested? Findings:\n"
        "Hydrostatic test passed, engine restarted on 17 January."
    )
    assert uncited_statements(answer) == [
        "The preheater was out of service.",
        "Hydrostatic test passed, engine restarted on 17 January.",
    ]
    assert (
        uncited_statements("From the archive:\n\nThe pilot ran out of fuel [C:004e05a5ee64]") == []
    )
