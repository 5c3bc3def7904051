"""OCR speed and word accuracy on scanned copies of the shared NTSB final reports.

Each report's pages are rendered to 200-dpi grey images and bound into a PDF with no text layer
(as an office scanner makes them); Bosun's PDF loader reads them back through Tesseract. Word
accuracy compares the OCR'd words of each page with the original PDF's text layer, in order
(difflib's matching blocks over lower-cased words, punctuation stripped): matched words / words
of the text layer. Prints a row per report, the totals, and pages per second on this machine.

    python benchmarks/ocr_accuracy.py [--reports N] [--json]

Reads ``../shared/data/ntsb/final_reports/pdf/*.pdf``; needs Debian's tesseract-ocr.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import Table, emit  # noqa: E402

from archive.ingest import ocr  # noqa: E402
from archive.ingest.loaders.pdf import pdf_pages, pdf_text  # noqa: E402
from tests.scans import DPI, scanned_pdf  # noqa: E402

REPORTS = ROOT.parent / "shared" / "data" / "ntsb" / "final_reports" / "pdf"
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def accuracy(truth: list[str], read: list[str]) -> tuple[int, int]:
    """(matched, total) words of ``truth`` found in order in ``read``."""
    matcher = difflib.SequenceMatcher(a=truth, b=read, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()), len(truth)


def measure(path: Path) -> dict[str, Any]:
    original = path.read_bytes()
    truth = pdf_pages(original, origin=path.name)
    scan = scanned_pdf(original)
    started = time.perf_counter()
    read = pdf_text(scan, origin=f"{path.name} (scanned)")
    seconds = time.perf_counter() - started
    matched = total = 0
    for true_page, read_page in zip(truth, read.pages, strict=True):
        m, t = accuracy(words(true_page), words(read_page))
        matched, total = matched + m, total + t
    return {
        "report": path.stem,
        "pages": len(truth),
        "ocr_pages": len(read.ocr_pages),
        "unread_pages": len(read.unread_pages),
        "words": total,
        "word_accuracy": round(matched / total, 4) if total else 0.0,
        "seconds": round(seconds, 2),
    }


def tables(rows: list[dict[str, Any]]) -> list[Table]:
    """A row per report and the totals, as ``docs/`` renders them."""
    pages = sum(r["pages"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    words = sum(r["words"] for r in rows)
    matched = sum(r["word_accuracy"] * r["words"] for r in rows)
    per_report = Table(
        "reports",
        ["report", "pages", "pages OCR could not read", "words", "word accuracy", "OCR s"],
        [
            [
                r[key]
                for key in ("report", "pages", "unread_pages", "words", "word_accuracy", "seconds")
            ]
            for r in rows
        ],
    )
    total = Table(
        "total",
        ["reports", "pages", "unread pages", "word accuracy", "pages per second", "scan dpi"],
        [
            [
                len(rows),
                pages,
                sum(r["unread_pages"] for r in rows),
                round(matched / max(1, words), 4),
                round(pages / seconds, 3) if seconds else 0.0,
                DPI,
            ]
        ],
    )
    return [per_report, total]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=int, default=0, help="only the first N reports")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not ocr.enabled():
        raise SystemExit("tesseract-ocr is not installed (Debian: apt-get install tesseract-ocr)")
    paths = sorted(REPORTS.glob("*.pdf"))[: args.reports or None]
    if not paths:
        raise SystemExit(f"no PDFs under {REPORTS} (the shared data folder is needed)")
    command = "python benchmarks/ocr_accuracy.py" + (
        f" --reports {args.reports}" if args.reports else ""
    )
    rows = [measure(path) for path in paths]
    emit(command + " --json", tables(rows), as_json=args.json, ocr_dpi=ocr.DPI)
    return 0


if __name__ == "__main__":
    sys.exit(main())
