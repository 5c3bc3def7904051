"""The CLI imports training and evaluation code only for the commands that run it."""

from __future__ import annotations

import json
import subprocess
import sys

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
