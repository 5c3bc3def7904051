"""Checks a set of usrp-users fix and cause questions against the mail it was written from.

For every question of ``<set>_dev.jsonl`` and ``<set>_heldout.jsonl``: its ``thread_id``,
``message_id`` and ``stated_in`` are Message-IDs of messages in the corpus; ``message_id`` is one
of ``stated_in``; ``thread_id`` is the root of that message's conversation (its References and
In-Reply-To followed back as far as the corpus holds them); every gold phrase is in the text the
archive stores for a ``stated_in`` message (quotes stripped, compared the way the scorer compares:
lower-case words) and not in the question; a thread asks each kind at most once; and, with
``--used``, no thread is one an earlier set uses. It prints counts and the problems it found (by
message id, never a question's text) and exits 1 when there is any.

    python benchmarks/questions/check_fix_threads.py --set fix_threads7 \
        --used /work/scoring/used_thread_ids.txt
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from archive.ingest.loaders.email import parse_message

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[2] / "shared" / "data" / "email" / "usrp-users"


@dataclass(frozen=True)
class Mail:
    """One message as the archive stores it: its text and the ids it replies to."""

    text: str
    parents: tuple[str, ...]


def words(text: str) -> str:
    """Lower-case words joined by single spaces (the scorer's normalisation)."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def states(text: str, phrase: str) -> bool:
    """Whether ``text`` holds ``phrase`` word for word."""
    return f" {words(phrase)} " in f" {words(text)} "


def read_corpus(folder: Path) -> dict[str, Mail]:
    """Every message of ``folder`` by Message-ID; FileNotFoundError when it holds none."""
    paths = sorted(folder.glob("*.eml"))
    if not paths:
        raise FileNotFoundError(f"no .eml files in {folder} (pass --corpus)")
    mails: dict[str, Mail] = {}
    for path in paths:
        doc = parse_message(path.read_bytes(), origin=str(path))[0]
        meta = doc.metadata
        parents = (*meta.get("references", "").split(), *meta.get("in_reply_to", "").split())
        text = "\n".join(section.text for section in doc.sections)
        mails[doc.source_id] = Mail(text, parents)
    return mails


def root(mails: dict[str, Mail], message_id: str) -> str:
    """The first message of ``message_id``'s conversation that the corpus holds."""
    seen = {message_id}
    current = message_id
    while parent := next((p for p in mails[current].parents if p in mails and p not in seen), ""):
        seen.add(parent)
        current = parent
    return current


def problems(rows: list[dict], mails: dict[str, Mail], used: set[str]) -> list[str]:
    """What is wrong with ``rows``, one line a problem."""
    found: list[str] = []
    for row in rows:
        mid, stated = row["message_id"], row["stated_in"]
        missing = [i for i in [row["thread_id"], mid, *stated] if i not in mails]
        if missing:
            found.append(f"{mid}: not in the corpus: {missing}")
            continue
        if mid not in stated:
            found.append(f"{mid}: message_id is not one of stated_in")
        if root(mails, mid) != row["thread_id"]:
            found.append(f"{mid}: thread_id is not the conversation's root")
        if row["thread_id"] in used:
            found.append(f"{mid}: thread used by an earlier set")
        for phrase in row["gold"]:
            if not any(states(mails[m].text, phrase) for m in stated):
                found.append(f"{mid}: gold {phrase!r} is in no stated_in message")
            if states(row["question"], phrase):
                found.append(f"{mid}: gold {phrase!r} is in the question")
    twice = Counter((r["thread_id"], r["kind"]) for r in rows)
    found += [f"{t}: asks {k} {n} times" for (t, k), n in twice.items() if n > 1]
    return found


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="name", required=True, help="e.g. fix_threads7")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of .eml files")
    parser.add_argument("--used", type=Path, help="thread ids earlier sets use, one a line")
    args = parser.parse_args(argv)
    rows = [r for half in ("dev", "heldout") for r in _read(HERE / f"{args.name}_{half}.jsonl")]
    used = set(args.used.read_text("utf-8").split()) if args.used else set()
    found = problems(rows, read_corpus(args.corpus), used)
    kinds = Counter(r["kind"] for r in rows)
    threads = len({r["thread_id"] for r in rows})
    print(f"{len(rows)} questions ({dict(kinds)}) from {threads} threads")
    print("\n".join(found) or "every id is in the corpus and every gold phrase is stated")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
