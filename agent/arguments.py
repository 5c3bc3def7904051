"""Command-line argument checks: ranges, one-line usage errors, text that is safe to use."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class BosunParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``bosun: ...``, exit status 2)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("bosun").strip()
        sys.stderr.write(f"bosun: {command + ': ' if command else ''}{message}\n")
        sys.exit(2)


def positive_int(text: str) -> int:
    """An integer of at least 1 (``-k``, ``--limit``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def fraction(text: str) -> float:
    """A number from 0 to 1 (relevance scores are probabilities)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text!r}")
    return value


def decoded(text: str) -> str:
    """Command-line text with undecodable bytes (surrogate escapes) as U+FFFD, so nothing
    downstream (JSON, the database, the terminal) fails on them."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def clean_text_args(args: argparse.Namespace) -> None:
    """Decode every text argument (paths stay as given: file names may be any bytes) and
    sanitise a search query as the graph sanitises a question."""
    for name, value in vars(args).items():
        if isinstance(value, str):
            setattr(args, name, decoded(value))
    if isinstance(getattr(args, "query", None), str):
        # Imported here: the detector loads numpy and its model, which `bosun --help`, `status`
        # and `stop` do not need (tests/unit/test_cli_lazy.py).
        from graph.sanitization import sanitize

        args.query = sanitize(args.query).text


def printable(text: str) -> str:
    """``text`` safe to print on one line of a report: newlines, control characters and
    undecodable bytes escaped as ``repr`` does (a file name cannot forge a line)."""
    if text.isprintable():
        return text
    return repr(text)[1:-1]
