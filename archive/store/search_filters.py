"""Structural search filters, rendered as SQL for the BM25 arm and as a PGVectorStore filter."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from psycopg import sql

#: Columns compared for equality when their filter is set.
_EXACT = (
    "vessel_type",
    "vessel_class",
    "class_society",
    "registration",
    "report_no",
    "thread_id",
    "sender",
)


@dataclass(frozen=True)
class SearchFilters:
    """Exact constraints applied in SQL before any ranking; empty means the whole collection."""

    kinds: tuple[str, ...] = ()  # document kinds, e.g. ("ntsb_report",)
    doc_ids: tuple[str, ...] | None = None  # resolved from vessel filters; () matches nothing
    vessel_type: str | None = None
    vessel_class: str | None = None
    vessel_families: tuple[str, ...] = ()  # archive.vessel_types families, any of them
    class_society: str | None = None  # archive.vessel_types society, e.g. "Lloyd's Register"
    registration: str | None = None  # an aircraft's registration, e.g. "N3424Y"
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
        if self.vessel_families:
            add("vessel_family", "{} = ANY({})", "vessel_families", list(self.vessel_families))
        for name in _EXACT:
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
        if self.vessel_families:
            clauses.append({"vessel_family": {"$in": list(self.vessel_families)}})
        for name in _EXACT:
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
