"""Injection set I (``tests/data/injections_i.jsonl``): planted instructions and hard benign
negatives written blind (by a writer who never read the detector nor sets A to H), as they would
turn up in a shipping company's mail, survey reports, PDFs, web pages, attachments and forms.

Every base is written once plain and once disguised (the disguise named in its row), in English
and eighteen other languages; the bases are split half ``dev``, half ``held_back`` by the seed
below, both forms of a base on one side. ``python tests/data/make_injections_i.py`` writes the
file; ``--check`` regenerates it and exits 1 where it differs from the committed one."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from halves_by_base import halves  # noqa: E402
from injection_disguises_i import HANDWRITTEN, MECHANICAL, disguise, fits, plain  # noqa: E402
from injection_texts_i_attacks_en import ATTACKS_EN  # noqa: E402
from injection_texts_i_attacks_eu import ATTACKS_EU  # noqa: E402
from injection_texts_i_attacks_world import ATTACKS_WORLD  # noqa: E402
from injection_texts_i_benign_en import BENIGN_EN  # noqa: E402
from injection_texts_i_benign_eu import BENIGN_EU  # noqa: E402
from injection_texts_i_benign_world import BENIGN_WORLD  # noqa: E402
from injection_texts_i_extra import ATTACKS_EXTRA, BENIGN_EXTRA  # noqa: E402

PATH = Path(__file__).resolve().parent / "injections_i.jsonl"
SEED = "bosun-injections-i-2026-12-03"
FAMILIES = (
    "override",
    "persona",
    "exfiltration",
    "persistence",
    "action",
    "output",
    "forgery",
    "conditional",
)
LABELS = ("attack", "benign")

_SHIPS = ("Skarv", "Nordlys", "Polar Tern", "Sea Lark", "Bergen Trader", "Kittiwake", "Havgull")
_PORTS = ("Rotterdam", "Singapore", "Santos", "Piraeus", "Busan", "Jebel Ali", "Bergen")
_FILES = ("survey_report_2026.pdf", "crew_list.xlsx", "bunker_note.pdf", "invoice_7731.pdf")
#: Where a text was found: a template around its body.
CARRIERS = {
    "none": "{body}",
    "mail": (
        "From: {sender}@nordhavn.example\nTo: master.{slug}@nordhavn.example\n"
        "Subject: RE: MV {ship} / voyage {voyage}\n\n{body}"
    ),
    "pdf": "--- page {page} ---\n{body}\n--- page {next_page} ---",
    "survey": (
        "CONDITION SURVEY REPORT - MV {ship} (IMO {imo})\nSection {page}.{voyage}\n{body}\n"
        "Surveyor's stamp: [illegible]"
    ),
    "html": "<html><body>\n<h2>MV {ship} - noon report</h2>\n<p>{body}</p>\n</body></html>",
    "form": "Vessel: MV {ship}\nIMO: {imo}\nPort of call: {port}\n{remarks}{body}",
    "attach": "[Attachment: {file}]\n{body}",
}
_SENDERS = ("ops", "crewing", "tech.super", "chartering", "it-support", "hse")


#: A form field's own label at the start of a text ("Remarks:", "备注：").
_LABEL = re.compile(r"^[^\s:：]{1,20}(?: [^\s:：]{1,20})?\s?[:：]")


def carried(carrier: str, body: str, n: int, labelled: bool) -> str:
    """``body`` in the carrier ``carrier``, its details drawn from the base number ``n``; a form
    puts it under "Remarks:" unless the text has a field label of its own (``labelled``)."""
    ship = _SHIPS[n % len(_SHIPS)]
    return CARRIERS[carrier].format(
        body=body,
        remarks="" if labelled else "Remarks: ",
        ship=ship,
        slug=ship.lower().replace(" ", "-"),
        sender=_SENDERS[n % len(_SENDERS)],
        voyage=100 + n % 37,
        page=2 + n % 11,
        next_page=3 + n % 11,
        imo=9400000 + (n * 7919) % 99999,
        port=_PORTS[n % len(_PORTS)],
        file=_FILES[n % len(_FILES)],
    )


def _bases(label: str) -> list[tuple[str, tuple[str, ...]]]:
    """(language, base) in file order for ``label``."""
    groups = (
        [ATTACKS_EN, ATTACKS_EU, ATTACKS_WORLD, ATTACKS_EXTRA]
        if label == "attack"
        else [BENIGN_EN, BENIGN_EU, BENIGN_WORLD, BENIGN_EXTRA]
    )
    return [(lang, base) for group in groups for lang, bases in group.items() for base in bases]


def _forms(label: str) -> list[dict[str, str]]:
    """Both forms of every base of ``label``, without their split."""
    names = list(MECHANICAL)
    turn = 0
    rows: list[dict[str, str]] = []
    for n, (language, base) in enumerate(_bases(label)):
        family, carrier, text = base[:3]
        labelled = bool(_LABEL.match(plain(text)))
        if family not in FAMILIES or carrier not in CARRIERS:
            raise ValueError(f"{label} base {n}: family {family!r} or carrier {carrier!r}")
        if len(base) == 5:
            name, second = base[3], carried(carrier, plain(base[4]), n, labelled)
            if name not in HANDWRITTEN:
                raise ValueError(f"{label} base {n}: {name!r} is not written by hand")
        else:
            if len(base) == 4:
                name = base[3]
            else:
                while not fits(names[turn % len(names)], language):
                    turn += 1
                name = names[turn % len(names)]
                turn += 1
            if not fits(name, language):
                raise ValueError(f"{label} base {n}: {name} does not fit {language}")
            second = carried(carrier, _moved(name, text, language, n), n, labelled)
        stem = f"i-{label}-{family}-{language}-{n:03d}"
        first = carried(carrier, plain(text), n, labelled)
        for form, body in (("plain", first), (name, second)):
            rows.append(
                {
                    "id": f"{stem}-{form}",
                    "label": label,
                    "family": family,
                    "language": language,
                    "disguise": form,
                    "text": body,
                }
            )
    return rows


def _moved(name: str, text: str, language: str, n: int) -> str:
    """``text`` disguised by ``name``; a signature or footer goes to the end of the text."""
    if name in ("signature", "footer") and "[[" in text:
        head, rest = text.split("[[", 1)
        span, tail = rest.split("]]", 1)
        return (head + tail).rstrip() + disguise(name, span, language, n)
    return disguise(name, text, language, n)


def rows() -> list[dict[str, str]]:
    """Every row of set I, in file order, with its split."""
    out: list[dict[str, str]] = []
    for label in LABELS:
        forms = _forms(label)
        bases = {r["id"].rsplit("-", 1)[0]: (r["language"], r["family"]) for r in forms}
        side = halves([(b, lang, fam) for b, (lang, fam) in bases.items()], SEED)
        for row in forms:
            base = row["id"].rsplit("-", 1)[0]
            text = row.pop("text")
            out.append({**row, "split": side[base], "text": text})
    return out


def render() -> str:
    """The file's text."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows())


def main() -> int:
    """Write the file, or with ``--check`` compare it."""
    text = render()
    if "--check" in sys.argv[1:]:
        same = PATH.exists() and PATH.read_text(encoding="utf-8") == text
        sys.stderr.write(f"{PATH.name}: {'up to date' if same else 'DIFFERS'}\n")
        return 0 if same else 1
    PATH.write_text(text, encoding="utf-8")
    sys.stderr.write(f"wrote {PATH.name}: {text.count(chr(10))} rows\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
