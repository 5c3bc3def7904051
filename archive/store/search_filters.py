"""Structural search filters, rendered as SQL for the BM25 arm and as a PGVectorStore filter."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from psycopg import sql


@dataclass(frozen=True)
class SearchFilters:
    """Exact constraints applied in SQL before any ranking; empty means the whole collection."""

    kinds: tuple[str, ...] = ()  # document kinds, e.g. ("ntsb_report",)
    doc_ids: tuple[str, ...] | None = None  # resolved from vessel filters; () matches nothing
    vessel_type: str | None = None
    vessel_class: str | None = None
    report_no: str | None = None
    thread_id: str | None = None
    sender: str | None = None
    date_from: date | None = None
    date_to: date | None = None

    def is_empty(self) -> bool:
        return self == SearchFilters()

    def where(self, alias: str = "c") -> tuple[sql.Composable, dict[str, Any]]:
        """A WHERE-clause body over the chunks table (``TRUE`` when unfiltered), named params."""
        parts: list[sql.Composable] = []
        params: dict[str, Any] = {}

        def add(column: str, op: str, name: str, value: Any) -> None:
            parts.append(
                sql.SQL(op).format(sql.Identifier(alias, column), sql.Placeholder(f"f_{name}"))
            )
            params[f"f_{name}"] = value

        if self.kinds:
            add("kind", "{} = ANY({})", "kinds", list(self.kinds))
        if self.doc_ids is not None:
            add("doc_id", "{} = ANY({})", "doc_ids", list(self.doc_ids))
        for name in ("vessel_type", "vessel_class", "report_no", "thread_id", "sender"):
            if getattr(self, name) is not None:
                add(name, "{} = {}", name, getattr(self, name))
        if self.date_from is not None:
            add("date", "{} >= {}", "date_from", self.date_from)
        if self.date_to is not None:
            add("date", "{} <= {}", "date_to", self.date_to)
        if not parts:
            return sql.SQL("TRUE"), {}
        return sql.SQL(" AND ").join(parts), params

    def pgvector_filter(self) -> dict[str, Any] | None:
        """The same constraints in langchain-postgres' filter syntax."""
        clauses: list[dict[str, Any]] = []
        if self.kinds:
            clauses.append({"kind": {"$in": list(self.kinds)}})
        if self.doc_ids is not None:
            clauses.append({"doc_id": {"$in": list(self.doc_ids) or [""]}})
        for name in ("vessel_type", "vessel_class", "report_no", "thread_id", "sender"):
            value = getattr(self, name)
            if value is not None:
                clauses.append({name: {"$eq": value}})
        if self.date_from is not None:
            clauses.append({"date": {"$gte": self.date_from}})
        if self.date_to is not None:
            clauses.append({"date": {"$lte": self.date_to}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}
