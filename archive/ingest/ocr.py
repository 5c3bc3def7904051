"""Text for pages and images that have none: Tesseract (Debian's `tesseract-ocr`, through
pytesseract) on PDF pages rendered by pdfium and on image attachments. On by default wherever
Tesseract is installed; ``BOSUN_OCR=off`` turns it off. Where it is missing, the first page
that needed it says so once per process. Logos, signatures and banners are not read: an image
is read only when it is large enough to hold a page of text."""

from __future__ import annotations

import functools
import io
import logging
import os
import shutil
from dataclasses import dataclass

logger = logging.getLogger(__name__)

DPI = 300  # Tesseract reads best at 300 dpi; rendering costs grow with its square
MIN_WORDS = 5  # fewer confident words than this: the page is reported as unreadable
MIN_CONFIDENCE = 50  # Tesseract's per-word confidence (0-100) a word must reach to count
MIN_SIDE_PX = 400  # an image's shorter side below this is a logo, icon or signature scan
MAX_ASPECT = 5.0  # wider (or taller) than this is a banner or a rule
LANGUAGES = "eng"


@dataclass(frozen=True)
class Reading:
    """What OCR read on one page or image."""

    text: str  # "" when unreadable
    words: int  # confident words

    @property
    def readable(self) -> bool:
        return self.words >= MIN_WORDS


@functools.cache
def enabled() -> bool:
    """Whether OCR runs here: Tesseract is installed and BOSUN_OCR is not ``off``."""
    if os.environ.get("BOSUN_OCR", "on").strip().lower() in {"off", "0", "false", "no"}:
        logger.info("OCR is off (BOSUN_OCR)")
        return False
    if shutil.which("tesseract") is None:
        logger.warning(
            "OCR is off: Tesseract is not installed (Debian: apt-get install tesseract-ocr); "
            "pages and images without a text layer are indexed by their metadata only"
        )
        return False
    return True


def read_pdf_pages(data: bytes, pages: list[int]) -> dict[int, Reading]:
    """OCR of the 1-based ``pages`` of a PDF, each rendered at :data:`DPI`."""
    import pypdfium2

    readings: dict[int, Reading] = {}
    document = pypdfium2.PdfDocument(data)
    try:
        for number in pages:
            page = document[number - 1]
            try:
                image = page.render(scale=DPI / 72, grayscale=True).to_pil()
            finally:
                page.close()
            readings[number] = read_image(image)
    finally:
        document.close()
    return readings


def read_image_bytes(data: bytes) -> list[Reading] | None:
    """OCR of each frame of an image file (a multi-page TIFF has several); None when the image
    is a logo, banner or signature by its size, or not an image Pillow can open."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
        frames = [frame.copy() for frame in ImageSequence.Iterator(image)]
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as err:
        logger.info("image not read by OCR: %s", err)
        return None
    if not frames or not worth_reading(*frames[0].size):
        return None
    return [read_image(frame) for frame in frames]


def worth_reading_bytes(data: bytes) -> bool:
    """Whether an image file is large enough to hold text (read from its header only)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return worth_reading(*image.size)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return False


def worth_reading(width: int, height: int) -> bool:
    """Large enough to hold text, and not a banner."""
    short, long = sorted((width, height))
    return short >= MIN_SIDE_PX and long / max(short, 1) <= MAX_ASPECT


def read_image(image: object) -> Reading:
    """Tesseract's reading of one PIL image: the text of its confident words, line by line."""
    import pytesseract

    found = pytesseract.image_to_data(image, lang=LANGUAGES, output_type=pytesseract.Output.DICT)
    lines: dict[tuple[int, int, int], list[str]] = {}
    words = 0
    for i, word in enumerate(found["text"]):
        word = word.strip()
        if not word or float(found["conf"][i]) < MIN_CONFIDENCE:
            continue
        words += 1
        key = (found["block_num"][i], found["par_num"][i], found["line_num"][i])
        lines.setdefault(key, []).append(word)
    paragraphs: dict[tuple[int, int], list[str]] = {}
    for (block, par, _), line in sorted(lines.items()):
        paragraphs.setdefault((block, par), []).append(" ".join(line))
    text = "\n\n".join("\n".join(p) for p in paragraphs.values())
    return Reading(text, words)


@dataclass(frozen=True)
class PageText:
    """A file's text page by page, with the pages OCR read and those it could not."""

    pages: list[str]
    ocr_pages: tuple[int, ...] = ()  # 1-based pages whose text came from OCR
    unread_pages: tuple[int, ...] = ()  # pages with no text layer that OCR could not read

    @property
    def metadata(self) -> dict[str, str]:
        """What a document records of its OCR (shown with its citations)."""
        found = {"ocr_pages": self.ocr_pages, "ocr_unread_pages": self.unread_pages}
        return {key: ",".join(map(str, pages)) for key, pages in found.items() if pages}


def fill_blank_pages(data: bytes, pages: list[str], *, origin: str) -> PageText:
    """``pages`` (a PDF's text layer) with the pages that have none read by OCR; a page OCR
    cannot read is reported (logged, and listed in the result), never silently empty."""
    blank = [n for n, text in enumerate(pages, start=1) if len(text.split()) < MIN_WORDS]
    if not blank or not enabled():
        return PageText(pages, unread_pages=tuple(blank) if blank and pages else ())
    import pypdfium2

    try:
        readings = read_pdf_pages(data, blank)
    except pypdfium2.PdfiumError as err:
        logger.warning("%s: pages %s not read by OCR: %s", origin, blank, err)
        return PageText(pages, unread_pages=tuple(blank))
    filled = list(pages)
    ocr_pages, unread = [], []
    for number, reading in readings.items():
        if reading.readable:
            filled[number - 1] = reading.text
            ocr_pages.append(number)
        else:
            unread.append(number)
    if unread:
        logger.warning("%s: OCR found no readable text on pages %s", origin, unread)
    return PageText(filled, tuple(ocr_pages), tuple(unread))


def image_text(data: bytes, *, origin: str) -> PageText | None:
    """An image attachment's text by OCR (a page per frame); None when OCR is off or the image
    is a logo, banner or signature by its size (it stays listed by name)."""
    if not enabled():
        return None
    readings = read_image_bytes(data)
    if readings is None:
        return None
    unread = tuple(n for n, r in enumerate(readings, start=1) if not r.readable)
    if len(unread) == len(readings):
        logger.warning("%s: OCR found no readable text in the image", origin)
    return PageText(
        [r.text if r.readable else "" for r in readings],
        tuple(n for n, r in enumerate(readings, start=1) if r.readable),
        unread,
    )
