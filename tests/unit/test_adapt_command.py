"""`bosun adapt`'s arguments: what reaches adapt.command, and the flags that are gone."""

from __future__ import annotations

import pytest

from adapt.command import AdaptOptions
from agent import cli
from agent.adapt_command import options_of


def test_the_flags_become_the_options_adapt_runs_with() -> None:
    args = cli._parser(["adapt"]).parse_args(["adapt", "--steps", "7", "--negatives", "0"])
    assert options_of(args) == AdaptOptions(steps=7, negatives=0)
    args = cli._parser(["adapt"]).parse_args(["adapt", "--no-calibrate", "--reset"])
    assert options_of(args) == AdaptOptions(calibrate=False, reset=True)
    args = cli._parser(["adapt"]).parse_args(["adapt", "--no-mining"])
    assert options_of(args) == AdaptOptions(mine=False)


def test_help_says_where_labels_come_from(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli._parser(["adapt"]).parse_args(["adapt", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "feedback the web app (bosun serve) stores" in text and "opened" in text
    assert "click memory" in text and "cross-validation" in text and "--queries" in text
    assert "change nothing" in text


@pytest.mark.parametrize("flag", [["--mode", "full"], ["--mode", "head"], ["--epochs", "2"]])
def test_the_full_fine_tune_and_its_flags_are_gone(
    flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli._parser(["adapt"]).parse_args(["adapt", *flag])
    assert exit_.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err
