"""The mailbox as it really is: one real message from the shared mailing lists per finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from archive.ingest.loaders.email import load_eml
from archive.ingest.mail_parts import looks_like_text, notebook_text, without_pgp_armor
from archive.ingest.mail_text import strip_inline_data, strip_quotes
from archive.ingest.model import SourceDocument

pytestmark = pytest.mark.shared_data


def _load(shared_data: Path, name: str) -> list[SourceDocument]:
    folder = shared_data / "email"
    path = folder / "usrp-users" / f"{name}.eml" if "/" not in name else folder / name
    docs = list(load_eml(path))
    assert all(isinstance(d, SourceDocument) for d in docs), docs
    return docs  # type: ignore[return-value]


def test_smime_signed_data_message_is_indexed(shared_data: Path) -> None:
    (message,) = _load(shared_data, "6794aed06efca1dd91c5a86fade2ef3cf5984d9d")
    assert "custom rfnoc block which is now in essence just a multiplier" in (
        message.sections[0].text
    )
    assert message.metadata["attachments"] == "smime.p7m (S/MIME signed)"


def test_pgp_signed_message_is_indexed_without_its_signature(shared_data: Path) -> None:
    message, *attachments = _load(shared_data, "0fbdd94c91095bcc5fb9ba436adb9021be07a59a")
    assert "Finally I have found a simple way" in message.sections[0].text
    assert "PGP" not in message.sections[0].text
    assert "OpenPGP_signature.asc (signature" in message.metadata["attachments"]
    assert not [a for a in attachments if a.title.endswith(".asc")]


@pytest.mark.parametrize(
    ("name", "attachment", "declared", "expected"),
    [
        ("553b6a1d24d70803a7527b63a651adbe8c721dc2", "x310_rfnoc_custom.yml", "application/x-yaml",
         "schema: rfnoc_imagebuilder_args"),
        ("1a3497bba1d2d8a848660cf69563a3673acf5cd9", "FMCW11.cpp", "application/octet-stream",
         "#include <uhd/rfnoc/block_id.hpp>"),
        ("b2c07395b0fd4f4340f2810b49a4f286dbb7baab",
         "0001-libraries_and_headers_with_no_set_thread_name.patch", "application/octet-stream",
         "diff --git a/host/cmake/Modules/UHDBoost.cmake"),
        ("9c8c2bc4ff09156018d398a604634ca7fe18ea22", "test1.ipynb", "application/octet-stream",
         "import argparse"),
    ],
)  # fmt: skip
def test_application_attachments_are_read_by_content_and_name(
    shared_data: Path, name: str, attachment: str, declared: str, expected: str
) -> None:
    docs = _load(shared_data, name)
    (doc,) = [d for d in docs if d.title == attachment]
    assert doc.metadata["content_type"] == declared
    assert doc.embedding_mode == "full"
    assert expected in doc.sections[0].text
    if attachment.endswith(".ipynb"):
        assert '"cell_type"' not in doc.sections[0].text  # the cells' code, not the JSON


def test_logo_images_are_listed_not_indexed(shared_data: Path) -> None:
    docs = _load(shared_data, "0d43faee4cb735d7354c73fe0147d286c0e9289e")
    assert [d.kind for d in docs] == ["email"]
    assert docs[0].metadata["attachments"] == "image001.png (image, image/png, 47340 bytes)"


def test_inline_base64_images_are_kept_out_of_the_text(shared_data: Path) -> None:
    (message,) = _load(shared_data, "0cee2e21e86bcb65b84674989857836da0f66c6a")
    text = message.sections[0].text
    assert "data:image" not in text and "iVBORw0KGgo" not in text
    assert "rebuilt an out-of-tree NOC block" in text
    assert message.metadata["inline_images"] == "1"
    assert "embed0 (image, image/png" in message.metadata["attachments"]


def test_outlook_quoted_headers_are_cut(shared_data: Path) -> None:
    (message,) = _load(shared_data, "08084ad8c0ea44ba846e1c454179c83f8bfc6872")
    text = message.sections[0].text
    assert "putting the output file in /dev/shm" in text
    assert "Sent:" not in text and "DOR-ISAAC" not in text


def test_bold_and_spaced_reply_headers_are_cut(shared_data: Path) -> None:
    (message,) = _load(shared_data, "5ad7b4b0a6da590e588c8e4f09e444551c45b36c")
    text = message.sections[0].text
    assert text.endswith("control of the default UHD API or ATR.\n\nBest\nPhilipp")
    (french,) = _load(shared_data, "004fe49a762fbbdc8170b86668f772eeb528aab7")
    assert "Envoyé:" not in french.sections[0].text and "De:" not in french.sections[0].text


def test_answers_between_quotes_stay(shared_data: Path) -> None:
    (message,) = _load(shared_data, "bedf0f67ab8137de4d5b1d7aaaea0dd706750fd1")
    text = message.sections[0].text
    assert text.startswith("Dear Per,")
    assert "You need to specify the channels you want to use" in text
    assert "> " not in text and "wrote:" not in text


def test_a_message_of_attachments_only_is_kept(shared_data: Path) -> None:
    message, *attachments = _load(shared_data, "24887d137f3ad3eaa0d27daa5b199b0ac8ec3ccd")
    assert message.embedding_mode == "metadata_only"
    assert "lab1_1.m" in message.sections[0].text
    assert len(attachments) == 7 and all(a.embedding_mode == "full" for a in attachments)


def test_notmuch_patch_attachment_is_text(shared_data: Path) -> None:
    docs = _load(shared_data, "notmuch/default/bar/new/21:2,")
    (patch,) = [d for d in docs if d.kind == "attachment"]
    assert patch.title.endswith(".patch") and patch.embedding_mode == "full"
    assert "From 3f9431f74a5ff66c84c869a3e26c2bad42bed1b1" in patch.sections[0].text


# --- the helpers on exact inputs ------------------------------------------------------------


def test_text_sniffing() -> None:
    assert looks_like_text(b"key: value\n# comment\n")
    assert looks_like_text("température élevée\n".encode())
    assert not looks_like_text(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert not looks_like_text(bytes(range(1, 32)) * 10)
    assert not looks_like_text(b"   ")


def test_notebook_cells() -> None:
    raw = '{"cells": [{"cell_type": "code", "source": ["x = 1\\n", "print(x)"],'
    raw += ' "outputs": [{"text": ["1\\n"]}]}, {"cell_type": "markdown", "source": "# Notes"}]}'
    assert notebook_text(raw) == "x = 1\nprint(x)\n\n1\n\n# Notes"
    assert notebook_text("not json") == ""


def test_pgp_clear_signed_text() -> None:
    signed = (
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nReboot the N310.\n- -- not a sig\n"
        "-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE\n-----END PGP SIGNATURE-----\n"
    )
    assert without_pgp_armor(signed).strip() == "Reboot the N310.\n-- not a sig"


def test_inline_data_and_outlook_quotes() -> None:
    text, n = strip_inline_data("See ![](data:image/png;base64,iVBORw0KGgo=) and <img src=x>.")
    assert (text, n) == ("See  and <img src=x>.", 1)
    outlook = (
        "Fixed by reseating the card.\n\n________________________________\n"
        "From: Ops <ops@x.example>\nSent: Monday, March 25, 2024 10:05 AM\nTo: list@x.example\n"
        "Subject: card fault\n\nThe card fails.\n"
    )
    assert strip_quotes(outlook) == "Fixed by reseating the card."
    yaml = "Why?\n\nschema: rfnoc\ndata: True # traffic\nbuff_size: 32768\n"
    assert strip_quotes(yaml) == yaml.strip()  # "key: value" lines are no reply header
