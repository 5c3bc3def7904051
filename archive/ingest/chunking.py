"""Cut a document's sections into overlapping passages on paragraph and sentence boundaries."""

from __future__ import annotations

import re
from collections.abc import Iterator

from archive.ingest.model import Chunk, Section, SourceDocument, short_id
from text.sentences import sentences

MIN_SECTION_CHARS = 40  # a shorter section (a lone heading) is merged into the next one

_PARAGRAPH = re.compile(r"\n\s*\n")

_Unit = tuple[int, str]  # (paragraph number, sentence)


def chunk_document(
    doc: SourceDocument, *, max_chars: int = 1000, overlap: int = 150
) -> list[Chunk]:
    """The chunks of ``doc``, in order; ids are ``short_id(doc_id, ordinal, text)``.

    A section boundary is always a chunk boundary (sections under 40 characters are merged into
    the next). Within a section, whole paragraphs are packed up to ``max_chars``; a paragraph
    too long for that is packed sentence by sentence (a sentence longer than ``max_chars`` is
    cut at spaces), and consecutive chunks repeat up to ``overlap`` characters of whole
    sentences. A ``metadata_only`` document gives exactly one chunk: its metadata text.
    """
    if max_chars < 1 or not 0 <= overlap < max_chars:
        raise ValueError("need max_chars >= 1 and 0 <= overlap < max_chars")
    if doc.embedding_mode == "metadata_only":
        first = doc.sections[0] if doc.sections else Section("metadata", doc.title)
        text = " ".join(" ".join(s.text for s in doc.sections).split()) or doc.title
        return [_chunk(doc, 0, first.name, text[:max_chars], first.page)]
    chunks: list[Chunk] = []
    for section in _merged(doc.sections):
        for text in split_text(section.text, max_chars=max_chars, overlap=overlap):
            chunks.append(_chunk(doc, len(chunks), section.name, text, section.page))
    return chunks


def split_text(text: str, *, max_chars: int = 1000, overlap: int = 150) -> list[str]:
    """Whitespace-normalised passages of at most ``max_chars`` (see ``chunk_document``)."""
    packer = _Packer(max_chars, overlap)
    for number, paragraph in enumerate(_PARAGRAPH.split(text)):
        units = [(number, s) for s in _sentences(" ".join(paragraph.split()), max_chars)]
        if units:
            packer.add_paragraph(units)
    packer.flush()
    return packer.out


def _chunk(doc: SourceDocument, ordinal: int, section: str, text: str, page: int | None) -> Chunk:
    return Chunk(
        chunk_id=short_id(doc.doc_id, str(ordinal), text),
        ordinal=ordinal,
        section=section,
        text=text,
        page=page,
    )


def _merged(sections: list[Section]) -> Iterator[Section]:
    carried = ""
    for i, section in enumerate(sections):
        text = section.text.strip()
        if not text:
            continue
        if len(" ".join(text.split())) < MIN_SECTION_CHARS and i < len(sections) - 1:
            carried += text + "\n\n"
            continue
        yield Section(section.name, carried + text, section.page)
        carried = ""
    if carried:
        last = sections[-1]
        yield Section(last.name, carried.strip(), last.page)


def _sentences(paragraph: str, max_chars: int) -> Iterator[str]:
    for sentence in sentences(paragraph):
        if len(sentence) <= max_chars:
            if sentence:
                yield sentence
            continue
        piece = ""
        for word in sentence.split(" "):
            while len(word) > max_chars:  # a run without spaces: cut it hard
                if piece:
                    yield piece
                    piece = ""
                yield word[:max_chars]
                word = word[max_chars:]
            if piece and len(piece) + 1 + len(word) > max_chars:
                yield piece
                piece = word
            else:
                piece = f"{piece} {word}" if piece else word
        if piece:
            yield piece


class _Packer:
    """Greedy packing of sentences into passages, paragraph boundaries preferred."""

    def __init__(self, max_chars: int, overlap: int) -> None:
        self.max_chars = max_chars
        self.overlap = overlap
        self.out: list[str] = []
        self.current: list[_Unit] = []
        self.fresh = 0  # units in ``current`` not yet emitted in an earlier passage

    def add_paragraph(self, units: list[_Unit]) -> None:
        if self._fits(self.current + units):
            self._extend(units)
            return
        self.flush()  # break at the paragraph boundary, keep the overlap
        if self._fits(units):  # the whole paragraph, after as much overlap as fits
            while not self._fits(self.current + units):
                self.current.pop(0)
            self._extend(units)
            return
        for unit in units:  # too long for one passage: sentence by sentence
            self._push(unit)

    def flush(self) -> None:
        if not self.fresh:
            return
        self.out.append(_render(self.current))
        tail: list[_Unit] = []
        size = 0
        for unit in reversed(self.current):
            size += len(unit[1]) + 1
            if size > self.overlap:
                break
            tail.insert(0, unit)
        self.current, self.fresh = tail, 0

    def _push(self, unit: _Unit) -> None:
        if not self._fits([*self.current, unit]):
            self.flush()
            while self.current and not self._fits([*self.current, unit]):
                self.current.pop(0)
        self._extend([unit])

    def _extend(self, units: list[_Unit]) -> None:
        self.current.extend(units)
        self.fresh += len(units)

    def _fits(self, units: list[_Unit]) -> bool:
        return len(_render(units)) <= self.max_chars


def _render(units: list[_Unit]) -> str:
    out = ""
    for i, (number, sentence) in enumerate(units):
        if i:
            out += " " if units[i - 1][0] == number else "\n\n"
        out += sentence
    return out
