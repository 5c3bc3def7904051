"""Real archive text the planted-instruction classifier learns as negatives
(:mod:`adapt.shipped_injection_model`): half of the usrp-users mails (chosen by
:func:`trained_mail`, cut into passages as ingest cuts them), NTSB narratives and probable causes
from record 2,000 on, IMO casualty summaries, TAIC reports and the NTSB final reports, read in
the classifier's windows and sentence by sentence."""

from __future__ import annotations

import csv
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

from archive.ingest.chunking import chunk_document
from archive.ingest.loaders.email import parse_message
from archive.ingest.model import LoadError
from text.injection import classifier_windows, model_text, readable
from text.sentences import sentence_spans

MAIL_SEED = "bosun-injection-mail-2026-12-02"


def trained_mail(path: Path) -> bool:
    """Whether a usrp-users mail is in the half the classifier learns from (by a seeded hash of
    its file name); the benchmark counts false positives on the other half separately."""
    return hashlib.sha256(f"{MAIL_SEED}:{path.name}".encode()).hexdigest()[0] < "8"


def _mail_passages(folder: Path) -> Iterator[str]:
    for path in sorted(folder.glob("*.eml")):
        if not trained_mail(path):
            continue
        try:
            documents = parse_message(path.read_bytes(), origin=str(path))
        except LoadError:
            continue
        for doc in documents:
            yield from (chunk.text for chunk in chunk_document(doc))


def _real_texts(data: Path) -> Iterator[tuple[str, str]]:
    for text in _mail_passages(data / "email" / "usrp-users"):
        yield "usrp", text
    with (data / "ntsb" / "reports_2010_2016.jsonl").open(encoding="utf-8") as handle:
        for n, line in enumerate(handle):
            if n >= 2000:
                record = json.loads(line)
                yield "ntsb", record.get("narrative") or ""
                yield "ntsb", record.get("probable_cause") or ""
    csv.field_size_limit(1 << 30)
    with (data / "maritime" / "imo_casualties.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield "imo", row.get("SummaryOfEvents") or ""
    for folder, source in (("maritime/taic_reports", "taic"), ("ntsb/final_reports/txt", "final")):
        for path in sorted((data / folder).glob("*.txt")):
            yield source, path.read_text(encoding="utf-8", errors="replace")


def real_windows(data: Path, limit: int, seed: int = 7) -> list[tuple[str, str]]:
    """Up to ``limit`` normalised windows ``(source, text)`` of real archive text, sampled with
    ``seed``: a third of them mail (passages with code, patches, logs and addresses), the rest
    reports."""
    windows: dict[bool, list[tuple[str, str]]] = {True: [], False: []}
    for source, text in _real_texts(data):
        clean = readable(text)
        found = [(source, clean[s:e]) for s, e in classifier_windows(clean)]
        found += [(source, clean[s:e]) for s, e in sentence_spans(clean)]  # short ones too
        windows[source == "usrp"] += found
    rng = random.Random(seed)
    for part in windows.values():
        rng.shuffle(part)
    mail = windows[True][: limit // 3]
    picked = mail + windows[False][: limit - len(mail)]
    return [(source, model_text(w)) for source, w in picked]
