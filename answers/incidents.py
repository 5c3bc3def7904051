"""One incident, however many documents tell it: a report and the mail thread about it, a
thread's messages and its digest, the same record ingested twice. A list of records counts
incidents, not documents."""

from __future__ import annotations

import re

from archive.store.passages import Passage


def incident_key(passage: Passage) -> str:
    """What identifies the incident ``passage`` tells: its report number (every document
    filed under one NTSB number), else its mail thread (messages and digest), else its source
    record (one casualty or message ingested from two files), else its document."""
    if report := passage.get("report_no"):
        return f"report:{report.upper()}"
    if thread := passage.get("thread_id"):
        return f"thread:{thread}"
    if source := passage.get("source_id"):
        return f"source:{passage['kind']}:{_folded(source)}"
    return f"doc:{passage['doc_id']}"


def _folded(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()
