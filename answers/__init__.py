"""Answer composition: the offline composer (answers the aspect a question asks about in the
archive's own words), the passages' layout for a model, citations and their validation."""

from answers.aspects import Aspect, question_aspect, subject_of
from answers.composer import AnswerRequest, compose_answer
from answers.scoring import Embed, embedder

__all__ = [
    "AnswerRequest",
    "Embed",
    "Aspect",
    "compose_answer",
    "embedder",
    "question_aspect",
    "subject_of",
]
