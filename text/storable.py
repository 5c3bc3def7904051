"""The one boundary every string passes before it is stored or shown: PostgreSQL text columns
refuse NUL, UTF-8 cannot encode a lone surrogate, bidi controls reorder what a reader sees, and a
structure nested without limit exhausts the interpreter's stack."""

import re
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64  # nesting any stored or received structure may have (JSON, MIME parts)

_NUL = "\x00"
_SURROGATE = re.compile("[\ud800-\udfff]")
# Embeddings, overrides and isolates (U+202A-E, U+2066-9) and the implicit marks (U+200E/F, U+061C).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def storable(value: str) -> str:
    """`value` as a text column accepts it: NUL removed, each lone surrogate replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", value.replace(_NUL, ""))


def displayable(value: str) -> str:
    """A display field (title, subject, sender, file name): storable, without bidi controls."""
    return _BIDI.sub("", storable(value))


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply `value` (lists, tuples, mappings) nests, counted only up to `limit` + 1, so a
    hostile structure is measured without recursion and without walking all of it."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        if isinstance(item, Mapping):
            stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list | tuple):
            stack.extend((child, level + 1) for child in item)
    return deepest
