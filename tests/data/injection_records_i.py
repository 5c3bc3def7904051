"""Set I's text blocks read into bases: records apart by a blank line, each a head line
``family carrier [disguise]`` and then its text over as many lines as it needs; a line ``~ NAME``
starts the same text written again by hand (``split`` or ``polite``). Wrapped lines join with a
space, or with nothing after a Chinese or Japanese character; ``¶`` stands for a line break."""

from __future__ import annotations


def _cjk(ch: str) -> bool:
    """Whether ``ch`` is written without spaces around it (Chinese, kana, fullwidth forms)."""
    return 0x2E80 <= ord(ch) <= 0x9FFF or 0xFF00 <= ord(ch) <= 0xFFEF


def _join(lines: list[str]) -> str:
    out = ""
    for line in lines:
        line = line.strip()
        glue = "" if not out or _cjk(out[-1]) or out.endswith("¶") else " "
        out += glue + line
    return out.replace("¶", "\n")


def records(block: str) -> list[tuple[str, ...]]:
    """The bases of ``block``: (family, carrier, text[, disguise[, text written again]])."""
    bases: list[tuple[str, ...]] = []
    for chunk in block.strip().split("\n\n"):
        head, *lines = chunk.strip().split("\n")
        fields = head.split()
        if "~" in [line[:1] for line in lines]:
            at = [line[:1] for line in lines].index("~")
            name = lines[at][1:].strip()
            bases.append((*fields[:2], _join(lines[:at]), name, _join(lines[at + 1 :])))
        else:
            bases.append((*fields[:2], _join(lines), *fields[2:]))
    return bases
