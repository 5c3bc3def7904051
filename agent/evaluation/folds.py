"""K-fold splits of a split's queries, stable across runs and machines (by a hash of the id), so
`bosun adapt --hold-out K/N` trains without exactly the queries `bosun eval --fold K/N` scores."""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Fold:
    """Fold ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, query_id: str) -> bool:
        """Whether ``query_id`` falls in this fold."""
        digest = hashlib.sha256(query_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse_fold(text: str) -> Fold:
    """``"1/2"`` -> ``Fold(1, 2)`` (an argparse type)."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N such as 1/2, got {text!r}") from None
    if count < 2 or not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"fold {text!r}: need 1 <= K <= N and N >= 2")
    return Fold(index, count)


def split_queries(queries: dict[str, str], fold: Fold) -> tuple[dict[str, str], dict[str, str]]:
    """(the queries outside ``fold``, the queries inside it), each in the original order."""
    outside = {q: t for q, t in queries.items() if not fold.holds(q)}
    inside = {q: t for q, t in queries.items() if fold.holds(q)}
    return outside, inside
