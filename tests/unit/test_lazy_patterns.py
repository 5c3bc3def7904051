"""Patterns compiled at first use (text/patterns.py): they behave as ``re.compile``'s, and the
modules of questions most turns never ask (counts, flag states) compile none at import."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from text.patterns import LazyPattern

TEXT = "Cessna 172 and Piper PA-28 (both) crashed in West Virginia in 2011."


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        (r"\b(Cessna|Piper)\s+([A-Z]{0,3}-?\d+)", 0),
        (r"west\s+virginia|virginia", re.IGNORECASE),
        (r"\s*\([^()]*\)\s*", 0),
    ],
)
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern: str, flags: int) -> None:
    lazy, compiled = LazyPattern(pattern, flags), re.compile(pattern, flags)
    assert lazy.pattern == pattern
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)]
    assert lazy.findall(TEXT) == compiled.findall(TEXT)
    assert lazy.sub(" ", TEXT) == compiled.sub(" ", TEXT)
    for start in (0, 7, 11):
        for method in ("search", "match", "fullmatch"):
            found, expected = (
                getattr(lazy, method)(TEXT, start),
                getattr(compiled, method)(TEXT, start),
            )
            assert (found and found.span()) == (expected and expected.span())


def test_it_compiles_once_at_its_first_use() -> None:
    lazy = LazyPattern(r"a+b")
    assert lazy._compiled is None
    first = lazy.compiled
    assert lazy.search("xaab") is not None and lazy.compiled is first


def test_a_bad_pattern_fails_at_first_use_with_the_error_re_gives() -> None:
    lazy = LazyPattern(r"(unclosed")
    with pytest.raises(re.error, match="missing \\)"):
        lazy.search("anything")


def test_count_and_flag_modules_compile_no_pattern_of_theirs_at_import() -> None:
    # Everything they import first, then the patterns compiled while they import.
    code = (
        "import collections, json, re, sys\n"
        "import answers.count_filters, answers.related_types, archive.store.counts, pycountry\n"
        "import archive.store.passages, archive.vessel_types, text.words\n"
        "seen = collections.Counter()\n"
        "compile = re.compile\n"
        "def spy(pattern, flags=0):\n"
        "    module = sys._getframe(1).f_globals.get('__name__')\n"
        "    seen[module] += 1\n"
        "    return compile(pattern, flags)\n"
        "re.compile = spy\n"
        "import answers.counting, answers.flags\n"
        "print(json.dumps(seen))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    # one pattern is compiled at import: whether a question counts at all, asked of every question
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"answers.counting": 1}
