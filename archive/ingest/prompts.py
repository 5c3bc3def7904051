"""The prompts ingest enrichment gives a chat model (context summaries, thread digests)."""

from __future__ import annotations

#: Ingest enrichment (archive/ingest/enrich.py): the context summary a chat model writes.
CONTEXT_SUMMARY_PROMPT = """\
Write the context summary of the document below: one or two plain sentences, at most {chars} \
characters, saying what the document is and what it is about (who, what, when, which vessel or \
aircraft). Use only facts stated in the document. Reply with the summary alone.

{header}

{text}"""

#: Thread digests (archive/ingest/digests.py): a problem -> investigation -> resolution narrative.
THREAD_DIGEST_PROMPT = """\
Below are the messages of one email thread, oldest first. Write a digest of the thread in \
{min_words} to {max_words} words, as three short paragraphs that begin "Problem:", \
"Investigation:" and "Resolution:": the problem the first message reports, what the following \
messages found or tried, and how the thread ended (say plainly if it ended unresolved). Keep \
names, part numbers, error messages and figures exactly as written. Use only facts stated in \
the messages. Reply with the digest alone.

Subject: {subject}

{messages}"""
