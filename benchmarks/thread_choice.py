"""Which mail conversation fix and cause answers are built from: per run of ``bosun
eval-answers --details``, the share of thread questions whose answer cites messages of the
question's own conversation only (the thread the question was written from, gathered as Bosun
gathers it: its thread plus the same subject's fragments), the share citing the message that
states the gold, and the share stating the gold cited to it.

    BOSUN_OCR=off bosun ingest ../shared/data/email/usrp-users
    bosun eval-answers --offline benchmarks/questions/fix_threads{,2,3}_dev.jsonl \\
        --details dev.jsonl --json > /dev/null
    python benchmarks/thread_choice.py --run dev=dev.jsonl \\
        --questions benchmarks/questions/fix_threads{,2,3}_dev.jsonl [--json]

The details file names the question and its cited Message-IDs; the questions files give each
question's thread and stating messages; the store (``BOSUN_HOME``) gives the conversation.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit, runs_parser  # noqa: E402

COMMAND = (
    "python benchmarks/thread_choice.py --run LABEL=DETAILS "
    "--questions benchmarks/questions/fix_threads{,2,3}_{split}.jsonl"
)
COLUMNS = [
    "run",
    "questions",
    "answered from the question's conversation alone",
    "stating message cited",
    "fix/cause stated, cited to its message",
]


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def row_of(
    label: str,
    details: Sequence[Mapping[str, Any]],
    questions: Mapping[str, Mapping[str, Any]],
    conversations: Mapping[str, set[str]],
) -> list[Any]:
    """One run's row: details lines whose question is a thread question of ``questions``."""
    n = right = cited = stated = 0
    for line in details:
        question = questions.get(line["questions"][0])
        if question is None or line.get("mode", "offline") != "offline":
            continue
        n += 1
        answer_cites = {str(s).upper() for s in line["cited"][-1]}
        gold = {str(s).upper() for s in question.get("stated_in") or [question["message_id"]]}
        members = conversations.get(question["thread_id"], set()) | gold
        right += bool(answer_cites) and answer_cites <= members
        cited += bool(answer_cites & gold)
        stated += bool(line["measures"].get("gold"))
    return [label, n, _pct(right, n), _pct(cited, n), _pct(stated, n)]


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


async def _conversations(thread_ids: Iterable[str]) -> dict[str, set[str]]:
    """Each thread's conversation as Bosun gathers it: its messages' Message-IDs."""
    from agent.settings import Settings
    from agent.wiring import open_services
    from archive.store.threads import thread_messages

    async with open_services(Settings.from_env()) as services:
        found = await thread_messages(services.store, sorted(set(thread_ids)))
    return {t: {m["source_id"].upper() for m in members} for t, members in found.items()}


def main(argv: list[str] | None = None) -> int:
    parser = runs_parser(__doc__.splitlines()[0], "LABEL=DETAILS", "an eval's --details file")
    parser.add_argument("--questions", type=Path, nargs="+", required=True)
    args = parser.parse_args(argv)
    questions = {q["question"]: q for path in args.questions for q in _lines(path)}
    questions = {k: q for k, q in questions.items() if q.get("thread_id")}
    conversations = asyncio.run(_conversations(q["thread_id"] for q in questions.values()))
    rows = []
    for run in args.run:
        label, _, path = run.partition("=")
        rows.append(row_of(label, _lines(Path(path)), questions, conversations))
    emit(
        COMMAND,
        [Table("thread_choice", COLUMNS, rows)],
        as_json=args.json,
        archive="../shared/data/email/usrp-users (BOSUN_OCR=off)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
