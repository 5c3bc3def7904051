"""What the email loader makes of a real mailbox: messages without text, images and signatures
indexed as passages, inline base64 and quoted Outlook headers left in bodies, attachments by
declared type and how they were indexed. No database: loader and chunker only.

    python benchmarks/mailbox_ingest.py ../shared/data/email/usrp-users
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from render import Table, emit

from archive.ingest.chunking import chunk_document
from archive.ingest.discover import load_paths
from archive.ingest.model import LoadError

_INLINE = re.compile(r"data:image/[\w.+-]+;base64,")
_OUTLOOK = re.compile(r"^\s*\**(From|De|Von)\s*:\**.*\n\s*\**(Sent|Date|Envoyé|Gesendet)\s*:", re.M)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    started = time.perf_counter()
    counts: Counter[str] = Counter(  # what the mail rules are for: shown even when 0
        dict.fromkeys(
            (
                "documents with no text to index",
                "image passages",
                "bodies with a quoted Outlook header",
                "passages with inline base64",
                "load errors",
            ),
            0,
        )
    )
    kinds: Counter[tuple[str, str]] = Counter()
    for item in load_paths(args.paths):
        if isinstance(item, LoadError):
            counts["load errors"] += 1
            continue
        chunks = chunk_document(item)
        counts[f"{item.kind} documents"] += 1
        counts["passages"] += len(chunks)
        if not chunks:
            counts["documents with no text to index"] += 1
        if item.kind == "email":
            counts["listed attachments (images, signatures)"] += len(
                [p for p in item.metadata.get("attachments", "").split("; ") if p]
            )
            body = " ".join(s.text for s in item.sections)
            counts["bodies with a quoted Outlook header"] += bool(_OUTLOOK.search(body))
        else:
            kinds[(item.metadata.get("content_type", "?"), item.embedding_mode)] += 1
            image = item.metadata.get("content_type", "").startswith("image/")
            counts["image passages"] += image * len(chunks)
        counts["passages with inline base64"] += sum(bool(_INLINE.search(c.text)) for c in chunks)
    tables = [
        Table("counts", ["measure", "count"], sorted(counts.items())),
        Table(
            "attachments",
            ["attachment declared type", "indexed as", "count"],
            [[ctype, mode, value] for (ctype, mode), value in kinds.most_common()],
        ),
    ]
    paths = " ".join(str(p) for p in args.paths)
    seconds = round(time.perf_counter() - started, 1)
    emit(
        f"python benchmarks/mailbox_ingest.py {paths} --json",
        tables,
        as_json=args.json,
        seconds=seconds,
    )


if __name__ == "__main__":
    main()
