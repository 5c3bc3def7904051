"""One incident, however many documents tell it: a report and the mail thread about it, a
thread's messages and its digest, the same record ingested twice. A list of records counts
incidents, not documents."""

from __future__ import annotations

import re

from archive.store.passages import Passage

#: Kinds whose source id names the record itself (an IMO casualty's reference).
RECORD_KINDS = frozenset({"casualty"})


def incident_key(passage: Passage) -> str:
    """What identifies the incident ``passage`` tells: its report number (every document
    filed under one NTSB number), else its mail thread (messages and digest), else its source
    record (a casualty's reference: one casualty ingested from two files), else its document
    (a file's source id is only its name: two files may share it)."""
    if report := passage.get("report_no"):
        return f"report:{report.upper()}"
    if thread := passage.get("thread_id"):
        return f"thread:{thread}"
    if passage["kind"] in RECORD_KINDS and (source := passage.get("source_id")):
        return f"source:{passage['kind']}:{_folded(source)}"
    return f"doc:{passage['doc_id']}"


def _folded(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()
