"""Per-run knobs (LangGraph's ``context_schema``): the retrieval configuration, then the graph's
own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from tools.retrieval_config import ConfigError, RetrievalConfig


@dataclass(frozen=True)
class Context(RetrievalConfig):
    """One run's knobs: every retrieval switch and threshold (:class:`RetrievalConfig`, whose
    defaults and validation it inherits), then what only the graph uses."""

    user_id: str | None = None  # for traces and per-user limits
    dedup: bool = True  # best chunk per document (always off in single-report mode)
    max_passages: int = 8  # passages given to the answer
    max_searches: int = 2  # search tool calls the model may make per turn
    today: str | None = None  # ISO date relative dates are read against (None: the clock's)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.user_id is not None and not isinstance(self.user_id, str):
            raise ConfigError(f"Context.user_id must be a string or None, got {self.user_id!r}")
        if not isinstance(self.dedup, bool):
            raise ConfigError(f"Context.dedup must be true or false, got {self.dedup!r}")
        if self.today is not None:
            try:
                date.fromisoformat(self.today)
            except (TypeError, ValueError):
                raise ConfigError(
                    f"Context.today must be an ISO date or None, got {self.today!r}"
                ) from None
        for name in ("max_passages", "max_searches"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ConfigError(
                    f"Context.{name} must be a whole number of at least 1, got {value!r}"
                )


def context_of(context: Context | None) -> Context:
    """The run's context, or the defaults when the caller passed none."""
    return context if context is not None else Context()
