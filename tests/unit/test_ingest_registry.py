"""The loader registry: one question per file, the order in which loaders are asked, what a
registered module adds, and links that lead out of the folders being ingested."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from archive.ingest import workers
from archive.ingest.discover import load_paths
from archive.ingest.enrich import context_summary, llm_enricher
from archive.ingest.loaders import BUILTIN, REGISTRY, Kind, Loader, Probe, Registry
from archive.ingest.model import LoadError, SourceDocument
from archive.ingest.progress import count_sources
from archive.ingest.vessel_tagging import tagged_kinds
from tests.fakes.chat import ScriptedChatModel

TOY = "tests.fakes.deck_log"
EML = b"From: a@x.example\nMessage-ID: <m1@x.example>\nSubject: Hello\n\nBody.\n"
DECK_LOG = "DECK LOG Nordic Star\n0400 Ballast tanks sounded.\n0800 Pilot on board.\n"


@pytest.fixture
def deck_logs() -> Iterator[None]:
    REGISTRY.register(TOY)
    yield
    REGISTRY.unregister(TOY)


def _docs(results: list[SourceDocument | LoadError]) -> list[tuple[str, str]]:
    return [(r.kind, r.source_id) for r in results if isinstance(r, SourceDocument)]


def _errors(results: list[SourceDocument | LoadError]) -> dict[str, str]:
    return {Path(r.path).name: r.reason for r in results if isinstance(r, LoadError)}


# --- symbolic links ----------------------------------------------------------------------------


def test_a_link_out_of_the_ingested_folders_is_skipped_and_reported(tmp_path: Path) -> None:
    secret = tmp_path / "etc" / "passwd"  # stands in for /etc/passwd
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    root = tmp_path / "archive"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "a.txt").write_text("Ballast pump overhauled.\n")
    (root / "passwd.txt").symlink_to(secret)
    (root / "etc").symlink_to(secret.parent)  # a folder outside
    (root / "also-a.txt").symlink_to(root / "notes" / "a.txt")  # inside: followed
    (root / "notes-again").symlink_to(root / "notes")  # inside: the folder is read once

    results = list(load_paths([root]))
    assert sorted(_docs(results)) == [("text", "a.txt"), ("text", "also-a.txt")]
    errors = _errors(results)
    assert set(errors) == {"passwd.txt", "etc", "notes-again"}
    for name, target in (("passwd.txt", secret), ("etc", secret.parent)):
        assert errors[name] == (
            f"a symbolic link to {target}, outside the folders being ingested: not followed"
        )
    assert "already read" in errors["notes-again"]
    assert not any(
        "root:x:0:0" in s.text for r in results if isinstance(r, SourceDocument) for s in r.sections
    )


def test_a_link_into_another_ingested_folder_is_followed(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "log.txt").write_text("Engine log.\n")
    (tmp_path / "a" / "log.txt").symlink_to(tmp_path / "b" / "log.txt")
    results = list(load_paths([tmp_path / "a", tmp_path / "b"]))
    assert _docs(results) == [("text", "log.txt"), ("text", "log.txt")]
    assert _errors(results) == {}
    # ingested alone, "a" may not reach into "b"
    (error,) = list(load_paths([tmp_path / "a"]))
    assert isinstance(error, LoadError) and "outside the folders being ingested" in error.reason


def test_a_path_named_on_the_command_line_is_read_even_as_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "n.txt").write_text("Noted.\n")
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    (tmp_path / "one.txt").symlink_to(tmp_path / "real" / "n.txt")
    results = list(load_paths([tmp_path / "alias", tmp_path / "one.txt"]))
    assert _docs(results) == [("text", "n.txt"), ("text", "one.txt")]


def test_a_maildir_link_out_of_the_maildir_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere.eml"
    secret.write_bytes(EML.replace(b"Hello", b"Private"))
    box = tmp_path / "box"
    (box / "cur").mkdir(parents=True)
    (box / "new").mkdir()
    (box / "cur" / "1.eml").write_bytes(EML)
    (box / "new" / "2.eml").symlink_to(secret)
    results = list(load_paths([box]))
    assert [r.title for r in results if isinstance(r, SourceDocument)] == ["Hello"]
    assert _errors(results) == {
        "2.eml": f"a symbolic link to {secret}, outside the maildir: not followed"
    }


# --- choosing a loader -------------------------------------------------------------------------


def test_discovery_asks_the_registry_once_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text("Alpha.\n")
    (tmp_path / "b.csv").write_text("vessel_name,imo\nNordic Star,9234567\n")
    (tmp_path / "c.jsonl").write_text(json.dumps({"ntsb_no": "ANC10CA015", "narrative": "x"}))
    (tmp_path / "d.eml").write_bytes(EML)
    probed: list[str] = []
    real = Probe.read.__func__  # type: ignore[attr-defined]

    def read(cls: type[Probe], path: Path) -> Probe:
        probed.append(path.name)
        return real(cls, path)

    monkeypatch.setattr(Probe, "read", classmethod(read))
    results = list(load_paths([tmp_path]))
    assert probed == ["a.txt", "b.csv", "c.jsonl", "d.eml"]
    assert [kind for kind, _ in _docs(results)] == ["text", "text", "ntsb_report", "email"]


def test_content_tests_come_first_and_first_bytes_only_name_unclaimed_files(
    tmp_path: Path, deck_logs: None
) -> None:
    (tmp_path / "a.log").write_text(DECK_LOG)
    (tmp_path / "b.txt").write_text(DECK_LOG)  # .txt is claimed by name: plain text
    (tmp_path / "c-watch").write_text(DECK_LOG.replace("Nordic Star", "Baltic Trader"))
    (tmp_path / "d.log").write_text("2024-01-02 kernel: eth0 up\n")  # a .log, not a deck log
    results = list(load_paths([tmp_path]))
    assert _docs(results) == [
        ("deck_log", "a.log"),
        ("text", "b.txt"),
        ("deck_log", "c-watch"),
    ]
    assert _errors(results) == {
        "d.log": 'unsupported LOG: expected a deck log ("DECK LOG <ship>" on its first line)'
    }


def test_an_unregistered_kind_is_an_unsupported_file(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(DECK_LOG)
    assert _errors(list(load_paths([tmp_path]))) == {"a.log": "unsupported file type '.log'"}


def test_a_registered_module_brings_its_summary_and_tagging(
    tmp_path: Path, deck_logs: None
) -> None:
    (tmp_path / "a.log").write_text(DECK_LOG)
    ((doc,),) = [list(load_paths([tmp_path]))]
    assert isinstance(doc, SourceDocument)
    assert context_summary(doc) == (
        "Deck log of Nordic Star, 2 entries, opening: 0400 Ballast tanks sounded."
    )
    assert "deck_log" in tagged_kinds()
    model = ScriptedChatModel.replying("A model's summary.")
    assert llm_enricher(model)(doc).summary == context_summary(doc)  # not model_summary
    assert model.calls == []


def test_a_worker_process_registers_what_its_parent_registered(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(DECK_LOG)
    try:
        loaded = workers._load_in_worker(tmp_path / "a.log", None, (*BUILTIN, TOY))
        assert [(d.kind, d.source_id) for d in loaded if isinstance(d, SourceDocument)] == [
            ("deck_log", "a.log")
        ]
    finally:
        REGISTRY.unregister(TOY)


def test_progress_counts_what_each_loader_reads(tmp_path: Path) -> None:
    (tmp_path / "r.jsonl").write_text('{"ntsb_no": "A"}\n\n{"ntsb_no": "B"}\n{"ntsb_no": "C"}\n')
    (tmp_path / "fleet.csv").write_text("vessel_name,imo\nA,1234567\nB,7654321\n")  # one list
    (tmp_path / "c.csv").write_text("Reference,ShipsInvolved\nR1,A (-)\nR2,B (-)\n")
    box = tmp_path / "box"
    (box / "cur").mkdir(parents=True)
    (box / "tmp").mkdir()
    for n in (1, 2):
        (box / "cur" / f"{n}.eml").write_bytes(EML)
    (box / "tmp" / "3.eml").write_bytes(EML)
    (tmp_path / "x.png").write_bytes(b"\x89PNG")
    assert count_sources([tmp_path]) == 3 + 1 + 2 + 2 + 1


# --- the registry's own checks -----------------------------------------------------------------


def _module(monkeypatch: pytest.MonkeyPatch, name: str, **declared: object) -> str:
    module = types.ModuleType(name)
    for key, value in declared.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)
    return name


def _load_nothing(path: Path) -> list[SourceDocument | LoadError]:
    return []


def test_a_registry_refuses_what_is_declared_twice_or_not_at_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one = _module(monkeypatch, "kinds_one", KINDS=(Kind("log"),))
    two = _module(monkeypatch, "kinds_two", KINDS=(Kind("log"),))
    with pytest.raises(ValueError, match="kind 'log' is declared twice"):
        Registry([one, two]).loaders()
    stray = _module(
        monkeypatch, "stray", LOADERS=(Loader("stray", _load_nothing, kinds=("nothing",)),)
    )
    with pytest.raises(ValueError, match="undeclared kinds"):
        Registry([stray]).loaders()
    empty = _module(monkeypatch, "empty")
    with pytest.raises(ValueError, match="declares no LOADERS"):
        Registry([empty]).loaders()
    twice = _module(monkeypatch, "twice", LOADERS=(Loader("x", _load_nothing),) * 2)
    with pytest.raises(ValueError, match="loaders declared twice: x"):
        Registry([twice]).loaders()


def test_an_undeclared_kind_gets_every_default() -> None:
    assert REGISTRY.kind("beir") == Kind("beir")
    assert {k.name for k in REGISTRY.kinds()} >= {
        "email",
        "attachment",
        "ntsb_report",
        "casualty",
        "investigation_report",
        "text",
        "thread_digest",
    }


def _boom(path: Path) -> Iterator[SourceDocument | LoadError]:
    yield SourceDocument(
        kind="text", source_id=path.name, title="first", sections=[], original=b"", archive_name="x"
    )
    raise RecursionError("maximum recursion depth exceeded")


def test_a_loader_that_raises_is_one_line_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raising = _module(
        monkeypatch, "raising", LOADERS=(Loader("boom", _boom, kinds=("text",), suffixes=(".b",)),)
    )
    (tmp_path / "a.b").write_text("x")
    (tmp_path / "b.txt").write_text("Still read.\n")
    REGISTRY.register(raising)
    try:
        results = list(load_paths([tmp_path]))
    finally:
        REGISTRY.unregister(raising)
    assert _docs(results) == [("text", "a.b"), ("text", "b.txt")]
    assert _errors(results) == {"a.b": "the boom loader failed: RecursionError"}
