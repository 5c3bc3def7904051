"""The words of a message body: HTML to text (inscriptis), quoted replies and Outlook headers cut
(mail-parser-reply), mailing-list footers and inline base64 images removed."""

from __future__ import annotations

import re
from functools import lru_cache

from inscriptis import get_text
from lxml import etree, html
from mailparser_reply import EmailReplyParser

#: Languages whose reply headers ("On ... wrote:", "Am ... schrieb", "From:/Sent:") are cut.
#: Not Italian, Polish or Portuguese: their "Data:" header also starts YAML and code lines.
REPLY_LANGUAGES = ["en", "de", "fr", "es"]
# A cut is taken only where a reply header names a sender or says "wrote": a block of
# "key: value" lines inside the text (YAML, logs) is not one.
_REPLY_HEADER = re.compile(
    r"^\s*\**(?:From|Von|De|Da|Van)\s*:\**\s*\S|\b(?:wrote|schrieb|a écrit|escribió)\b"
    r"|Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original",
    re.IGNORECASE | re.MULTILINE,
)

_FOOTER = re.compile(  # "____\nX mailing list -- x@lists\nTo unsubscribe ...", anywhere
    r"^[ \t]*_{10,}[ \t]*\n[^\n]*mailing list\b[^\n]*(?:\n[ \t]*To unsubscribe[^\n]*)?$",
    re.MULTILINE | re.IGNORECASE,
)
# "![](data:image/png;base64,...)", "<img src="data:...">" left in text, a bare data: URI, and
# blocks of three or more base64 lines (an image pasted as text).
_INLINE_DATA = re.compile(
    r"!?\[[^\]\n]*\]\(\s*data:[^)]*\)"
    r"|<img\b[^>]*\bsrc\s*=\s*[\"']?data:[^>]*>"
    r"|data:[\w.+-]+/[\w.+-]+(?:;[\w=.-]+)*;base64,[A-Za-z0-9+/=]+",
    re.IGNORECASE,
)
_BASE64_BLOCK = re.compile(r"(?:^[ \t]*[A-Za-z0-9+/]{60,}={0,2}[ \t]*\n?){3,}", re.MULTILINE)
_ATTRIBUTION_START = re.compile(r"^(On|Am|El|Le|Il|Em|Den)\b")  # "On <date>, <who> wrote:"
_ATTRIBUTION_END = re.compile(r"\b(wrote|schrieb|escribió|a écrit|ha scritto|skrev)\s?:\s*$")
# Outlook and webmail reply headers the library misses: fields in bold or a blank line apart
# ("*From:* X\n\n*Sent:* ..."); a From line with a Sent/Date/To line at most one blank line below.
_SPACED_HEADER = re.compile(
    r"^[ \t]*\**(?:From|Von|De)[ \t]*:\**[ \t]*\S.*\n(?:[ \t]*\n)?"
    r"[ \t]*\**(?:Sent|Date|Gesendet|Datum|Envoyé|Enviado|To|An|À)[ \t]*:",
    re.MULTILINE,
)
_TRAILING_RULE = re.compile(r"(?:\n[ \t]*(?:[_-]{5,}|-+ ?[\w' ]{0,30}[Oo]rigin\w* ?-+)[ \t]*)+$")
_BULLET = re.compile(r"^[ \t]*\*[ \t]+", re.MULTILINE)


@lru_cache(maxsize=1)
def _reply_parser() -> EmailReplyParser:
    return EmailReplyParser(languages=REPLY_LANGUAGES)


def html_to_text(markup: str) -> str:
    """Readable text of HTML: scripts, styles and images dropped, blocks on their own lines,
    each blockquote's lines marked "> " as a plain-text reply quotes them."""
    if not markup.strip():
        return ""
    try:
        root = html.fromstring(markup)
    except (etree.ParserError, ValueError):
        return _tidy(get_text(markup))
    for quote in root.xpath("//blockquote[not(ancestor::blockquote)]"):
        inner = _tidy(get_text(etree.tostring(quote, encoding="unicode", with_tail=False)))
        marked = html.Element("pre")
        marked.text = "\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))
        marked.tail = quote.tail
        quote.getparent().replace(quote, marked)
    return _tidy(get_text(etree.tostring(root, encoding="unicode")))


def _tidy(text: str) -> str:
    """Lines without edge blanks, "- " bullets, at most one blank line in a row."""
    text = _BULLET.sub("- ", text)
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def strip_inline_data(text: str) -> tuple[str, int]:
    """``text`` without inline base64 images and pasted base64 blocks, and how many it had."""
    text, images = _INLINE_DATA.subn("", text)
    text, blocks = _BASE64_BLOCK.subn("", text)
    return text, images + blocks


def is_list_footer(text: str) -> bool:
    """A part that holds nothing but a mailing-list footer."""
    return not _FOOTER.sub("", text.strip()).strip()


def strip_quotes(text: str) -> str:
    """The newest reply of a message body: mailing-list footers removed, "> " quotes and the
    attribution line above them dropped (answers written between quotes stay), then the text
    from the first unmarked reply header (Outlook's "From:/Sent:/To:/Subject:", "On <date>,
    <who> wrote:" above plain text, "-----Original Message-----") on cut; the whole text when
    nothing else would remain."""
    body = _FOOTER.sub("", text.replace("\r\n", "\n")).strip()
    if not body:
        return text.strip()
    unmarked = _without_marked_quotes(body)
    replies = _reply_parser().read(text=unmarked).replies if unmarked else []
    cut = len(replies) > 1 and _REPLY_HEADER.search(replies[1].headers) is not None
    newest = replies[0].full_body if cut else unmarked
    if header := _SPACED_HEADER.search(newest):
        newest = newest[: header.start()]
    result = re.sub(r"\n\s*\n\s*(?:\n\s*)+", "\n\n", newest).strip()
    result = _TRAILING_RULE.sub("", result).strip()  # Outlook's "_____" above the cut header
    return result or body


def _without_marked_quotes(text: str) -> str:
    """``text`` without "> " lines and the "On <date>, <who> wrote:" lines that introduce them."""
    lines = text.split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">"):
            continue
        if _ATTRIBUTION_END.search(stripped):
            following = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
            if following.lstrip().startswith(">"):
                if not _ATTRIBUTION_START.match(stripped) and kept and kept[-1].strip():
                    kept.pop()  # the attribution's first line: "On <date>, <who>"
                continue
        kept.append(line)
    return "\n".join(kept).strip()
