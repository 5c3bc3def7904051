"""Scanned copies of real PDFs for the OCR tests and benchmark: each page rendered to an image
and the images bound into a PDF with no text layer, as a scanner would."""

from __future__ import annotations

import io
import shutil

import pypdfium2

DPI = 200  # a common office-scanner resolution


def tesseract_installed() -> bool:
    return shutil.which("tesseract") is not None


def scanned_pdf(data: bytes, pages: int | None = None, dpi: int = DPI) -> bytes:
    """``data`` (a PDF) as a scan: its first ``pages`` pages (all by default) as images only."""
    document = pypdfium2.PdfDocument(data)
    try:
        count = len(document) if pages is None else min(pages, len(document))
        images = [document[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(count)]
    finally:
        document.close()
    out = io.BytesIO()
    images[0].save(out, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return out.getvalue()


def page_image(data: bytes, page: int = 1, dpi: int = DPI) -> bytes:
    """One page of a PDF as a PNG (a photographed or scanned certificate, say)."""
    document = pypdfium2.PdfDocument(data)
    try:
        image = document[page - 1].render(scale=dpi / 72, grayscale=True).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
