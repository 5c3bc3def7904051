"""The texts answer composition writes, as named constants."""

from __future__ import annotations

#: The relevance cutoff stopped the turn before any answer was generated.
NO_RESULTS_REPLY = "No relevant documents found — rephrase the question or check your filters."

#: Offline extractive answers: the lead-in and the line when no sentence matched the question.
EXTRACTIVE_LEAD = "From the archive:"

#: A pattern question: one line per distinct document.
PATTERN_LEAD = "From the archive, {n} records, each with its stated cause or outcome:"

#: The question names what no retrieved passage holds: say so, then list the related records.
NOT_FOUND = "Not in the archive: nothing retrieved mentions {terms}."

CLOSEST_RECORDS = "The closest related records are:"

#: Every relevant sentence was already said earlier in the conversation.
NOTHING_NEW = "The archive adds nothing to what was already said above."

#: ... and the best of them is pointed back to.
ALREADY_SAID = "The archive adds nothing new; as said above:"

#: How a year in the question was used (offline answers say it first).
YEAR_RANKED = (
    "{year} is mentioned in passing: the whole archive was searched, records from {year} first."
)
DATES_FILTERED = "Dates filtered to {dates}, as asked."

EXTRACTIVE_NOTHING = (
    "The retrieved documents do not state this directly; the closest passages are cited below."
)

#: A fix or cause question about a mail thread: the asker's problem in one line, then the
#: reply that answers it (the one the asker confirmed, when they did).
THREAD_PROBLEM = "Asked by {author} ({date}):"
THREAD_FIX = "The fix, from {source}"
THREAD_CAUSE = "The cause, as {source} {explain} it"
THREAD_ANSWER = "The answer, from {source}"
THREAD_REPLY = "the reply by {authors}"
THREAD_REPLIES = "the replies by {authors}"
THREAD_BY = "{author} ({date})"
THREAD_CONFIRMED = ", which {asker} confirmed worked ({date}):"
THREAD_CONFIRMATION = "{asker} confirmed:"
THREAD_ASKER = "{author}, who asked"
