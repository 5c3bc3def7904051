"""A fleet list CSV (vessel_name, imo, vessel_type, vessel_class) for the vessel registry."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from archive.ingest.loaders.registry import Loader
from archive.ingest.model import LoadError, Section, SourceDocument, Vessel

REQUIRED = frozenset({"vessel_name", "imo"})


def load_fleet_list(path: Path) -> SourceDocument | LoadError:
    """One document listing the fleet; its vessels fill the registry."""
    try:
        data = path.read_bytes()
    except OSError as err:
        return LoadError(path, f"cannot read: {err.strerror or err}")
    try:
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    except (UnicodeDecodeError, csv.Error) as err:
        return LoadError(path, f"not a readable fleet list: {err}")
    vessels, lines = [], []
    for number, row in enumerate(rows, start=2):
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        name, imo = row.get("vessel_name", ""), row.get("imo", "")
        if not name or (imo and not (imo.isdigit() and len(imo) == 7)):
            return LoadError(path, f"line {number}: a vessel needs a name and a 7-digit IMO")
        vessel = Vessel(
            name, imo or None, row.get("vessel_type") or None, row.get("vessel_class") or None
        )
        vessels.append(vessel)
        lines.append(
            f"{name}: IMO {imo or 'unknown'}, {vessel.vessel_type or 'type unknown'}, "
            f"class {vessel.vessel_class or 'unknown'}"
        )
    if not vessels:
        return LoadError(path, "fleet list has no vessels")
    return SourceDocument(
        kind="text",
        source_id=path.name,
        title=f"Fleet list ({path.name})",
        sections=[Section("Fleet", "\n".join(lines))],
        original=data,
        archive_name=path.name,
        vessels=vessels,
        metadata={"vessels": str(len(vessels))},
    )


def _load(path: Path) -> list[SourceDocument | LoadError]:
    return [load_fleet_list(path)]


LOADERS = (
    Loader(
        "fleet_list",
        _load,
        kinds=("text",),
        suffixes=(".csv",),
        csv_columns=REQUIRED,
        expects="a fleet list (columns vessel_name, imo)",
    ),
)
