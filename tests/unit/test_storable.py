"""The storable boundary: what PostgreSQL refuses or a reader is misled by never gets through."""

from text.storable import MAX_DEPTH, depth, displayable, storable


def test_nul_and_lone_surrogates_are_made_storable() -> None:
    value = storable("x \x00 y \ud800 z")
    assert value == "x  y \ufffd z"
    value.encode("utf-8")  # a lone surrogate would raise here


def test_display_fields_lose_bidi_controls_but_keep_text() -> None:
    assert displayable("invoice\u202egpj.exe") == "invoicegpj.exe"
    assert displayable("RE: Hatch \u2066inspection\u2069") == "RE: Hatch inspection"
    assert storable("a\u202eb") == "a\u202eb"  # passages keep them; only display fields drop them


def test_depth_counts_nesting_without_recursion() -> None:
    assert depth({"a": [1, {"b": 2}]}) == 3
    hostile: list[object] = []
    for _ in range(100_000):
        hostile = [hostile]
    assert depth(hostile) == MAX_DEPTH + 1
