"""The offline answer composer: answers the kind of question asked in the archive's own words."""

from answers.composer import AnswerRequest, compose_answer
from answers.kinds import Kind, question_kind, subject_of
from answers.scoring import Embed, embedder

__all__ = [
    "AnswerRequest",
    "Embed",
    "Kind",
    "compose_answer",
    "embedder",
    "question_kind",
    "subject_of",
]
