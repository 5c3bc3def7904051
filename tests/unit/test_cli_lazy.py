"""The CLI imports training, evaluation, graph and model code only for the commands that run
it: `bosun --help`, `bosun status` and `bosun stop` load none of the graph or model stack."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent import cli

HEAVY = (
    "agent.adapt_command",
    "adapt.command",
    "agent.evaluation.command",
    "agent.evaluation.answers_command",
)


def _imported_after(argv: list[str]) -> dict[str, bool]:
    """Which of :data:`HEAVY` a fresh interpreter holds after building the parser for ``argv``."""
    code = (
        "import json, sys\nfrom agent.cli import _parser\n"
        f"_parser({argv!r}).parse_args({argv!r})\n"
        f"print(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return dict(json.loads(done.stdout))


def test_ask_imports_no_training_or_evaluation_code() -> None:
    assert _imported_after(["ask", "what caused it?"]) == dict.fromkeys(HEAVY, False)


def test_a_lazy_command_gets_its_full_parser() -> None:
    loaded = _imported_after(["eval", "/data", "--split", "dev", "--ablation"])
    assert loaded["agent.evaluation.command"]
    assert not loaded["agent.adapt_command"] and not loaded["adapt.command"]


@pytest.mark.parametrize("command", sorted(cli._LAZY))
def test_every_lazy_command_resolves(command: str) -> None:
    assert callable(cli._lazy(command, "add_{}_parser"))
    assert callable(cli._lazy(command, "run_{}"))


def test_top_level_help_lists_lazy_commands_without_importing_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli._parser(["--help"]).parse_args(["--help"])
    out = capsys.readouterr().out
    for command, (_, summary) in cli._LAZY.items():
        assert command in out
        assert summary.split()[0] in out


#: The graph and model stack: what `bosun --help`, `bosun status` and `bosun stop` never load.
STACK = (
    "langgraph",
    "langsmith",
    "langchain_core.language_models",
    "onnxruntime",
    "tokenizers",
    "graph.builder",
    "graph.state",
    "tools",
    "providers.minilm",
    "providers.embeddings",
    "providers.rerankers",
    "providers.chat",
    "agent.wiring",
    "agent.turns",
    "agent.conversation",
)


#: Below the graph, still more than they need: numpy, the injection detector (a search query's
#: check), the store with its connection pool and pgvector. `bosun status` reads counts over one
#: plain connection.
STORE_STACK = (
    "numpy",
    "text.injection",
    "graph.sanitization",
    "psycopg_pool",
    "pgvector",
    "archive.store.database",
)


def _stack_after(argv: list[str], env: dict[str, str], stack: tuple[str, ...] = STACK) -> list[str]:
    """The modules of ``stack`` (or below them) a fresh `bosun` process holds after ``argv``."""
    code = (
        "import json, sys\nfrom agent.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"stack = {stack!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if any(m == s or m.startswith(s + '.') for s in stack))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, **env},
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_help_imports_nothing_of_the_graph_or_models() -> None:
    assert _stack_after(["--help"], {}) == []
    assert _stack_after(["ask", "--help"], {}) != []  # the probe sees what a command loads


def test_help_does_not_even_import_the_database_driver() -> None:
    code = (
        "import sys\nfrom agent.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "print('psycopg' in sys.modules, 'agent.settings' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip().splitlines()[-1] == "False False"


def test_status_and_stop_import_nothing_of_the_graph_or_models(tmp_path: Path) -> None:
    # No database here: status fails to connect (one line, exit 1) after all its imports ran.
    refusing = {"DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none", "BOSUN_HOME": str(tmp_path)}
    assert _stack_after(["status"], refusing) == []
    assert _stack_after(["stop"], {"BOSUN_HOME": str(tmp_path)}) == []


def test_help_status_and_stop_import_neither_numpy_nor_the_store(tmp_path: Path) -> None:
    refusing = {"DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none", "BOSUN_HOME": str(tmp_path)}
    assert _stack_after(["--help"], {}, STORE_STACK) == []
    assert _stack_after(["status"], refusing, STORE_STACK) == []
    assert _stack_after(["stop"], {"BOSUN_HOME": str(tmp_path)}, STORE_STACK) == []
    # the probe sees what a command with a query loads
    assert "text.injection" in _stack_after(["search", "--help"], {}, STORE_STACK)


#: What an offline `bosun ask` never runs, so never imports: provider SDKs (none configured),
#: tracing (no keys), the web server, ingest and its format libraries, fitting and evaluation,
#: and the scientific stack beyond numpy.
NOT_ASKED = (
    "langfuse",
    "cohere",
    "langchain_cohere",
    "google",
    "langchain_google_genai",
    "langchain_openai",
    "uvicorn",
    "starlette",
    "sse_starlette",
    "agent.server.app",
    "agent.evaluation",
    "adapt",
    "archive.ingest",
    "archive.mailbox",
    "pypdf",
    "pypdfium2",
    "PIL",
    "lxml",
    "extract_msg",
    "imapclient",
    "scipy",
    "sklearn",
    "lightgbm",
    "pandas",
    "matplotlib",
    "torch",
)


def test_an_offline_ask_imports_no_provider_sdk_server_ingest_or_fitting_code(
    tmp_path: Path,
) -> None:
    # The database refuses: the ask fails (one line) once every module it runs has imported.
    env = {
        "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none",
        "BOSUN_HOME": str(tmp_path),
        "BOSUN_WARM_ASK": "off",
        "BOSUN_CHAT_MODEL": "",
    }
    assert _stack_after(["ask", "what happened?"], env, NOT_ASKED) == []
    assert "graph.builder" in _stack_after(["ask", "what happened?"], env)  # the probe sees it
