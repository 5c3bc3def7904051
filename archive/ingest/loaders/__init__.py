"""The loader registry: one module per document kind or file format, one list of them here.

Discovery (:mod:`archive.ingest.discover`) only walks folders; for each file it asks
:data:`REGISTRY` once, which reads the file's start into a :class:`Probe` and hands the file to
the one :class:`Loader` that takes it. Ingest asks the same registry what it knows about each
:class:`Kind` of document: its context summary and embedding mode (:mod:`archive.ingest.enrich`),
whether a chat model may write its summary, whether it is tagged with the vessels its text
names (:mod:`archive.ingest.vessel_tagging`).

A module listed in :data:`BUILTIN` declares, at module level, any of::

    LOADERS = (Loader("ntsb_records", load_records, kinds=("ntsb_report",),
                      suffixes=(".jsonl",), accepts=_is_records, expects="NTSB records ..."),)
    KINDS = (Kind("ntsb_report", summary=ntsb_summary),)
    PAGE_READERS = (PageReader("ntsb_final_report", _is_final_report, _from_pages),)

Adding a kind of document, or a format of a kind already known, is one new module here and one
line in :data:`BUILTIN` (or, from an application or a test, ``REGISTRY.register("pkg.module")``,
which ``--workers`` processes follow); nothing else in ingest branches on a kind but mail
threading (thread digests, attachments deleted with their message), which every mail format
shares. A format of a known kind, such as
Outlook ``.msg`` mail, declares only ``LOADERS`` with ``kinds=("email", "attachment")``; its
documents are then summarised, tagged and threaded as every other email. A :class:`PageReader`
recognises a document in paged text (a PDF's text layer now, OCR'd scans next), whichever
format held it. Rules for a module:

- it imports without optional packages (import those inside ``load``, and yield a LoadError
  naming the missing package), and it does no work at import time;
- ``load`` yields documents and a LoadError per thing it cannot read, never raises for bad
  input, and reads only the path it is given (a loader that walks a folder itself applies
  :func:`link_refusal` to the links it meets);
- a loader that reads from elsewhere (a mailbox server) is claimed by a small settings file
  (e.g. ``*.imap``) placed among the files, so discovery, workers and resume need no change.

The answer side keys on two kinds only, both about mail threads (``email`` opens a thread,
``thread_digest`` carries labelled parts): every mail format yields those kinds, so it needs no
change there. Thread digests are built from stored mail (:mod:`archive.ingest.digests`), and
``beir`` documents by the evaluation commands, with every default.
"""

from __future__ import annotations

from archive.ingest.loaders.registry import (
    Kind,
    Loaded,
    Loader,
    PageReader,
    Probe,
    Registry,
    link_refusal,
)

#: The modules declaring the built-in loaders and kinds. Among loaders claiming the same file
#: name and testing its content, the earlier is asked first (an NTSB final report before a
#: TAIC report before plain text; a casualty table before a fleet list).
BUILTIN = (
    "archive.ingest.loaders.mail",
    "archive.ingest.loaders.maildir",
    "archive.ingest.loaders.outlook",
    "archive.ingest.loaders.ntsb",
    "archive.ingest.loaders.casualties",
    "archive.ingest.loaders.taic",
    "archive.ingest.loaders.fleet",
    "archive.ingest.loaders.pdf",
    "archive.ingest.loaders.text",
    "archive.ingest.loaders.thread_digest",
)

#: The registry ingest uses.
REGISTRY = Registry(BUILTIN)

__all__ = [
    "BUILTIN",
    "REGISTRY",
    "Kind",
    "Loaded",
    "Loader",
    "PageReader",
    "Probe",
    "Registry",
    "link_refusal",
]
