"""Reading environment variables with pydantic-settings: one model per group of settings, each
field named by its variable (``validation_alias``), read from a mapping handed in at start-up
(``os.environ`` by default) and never at import time. A bad value is a :class:`SettingsError`
naming the variable, and the message never echoes a secret.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from agent.errors import SettingsError

ECHOED = 40  # characters of a bad value a message quotes

Model = TypeVar("Model", bound="EnvironmentModel")


class EnvironmentModel(BaseSettings):
    """Settings read from environment variables (case-sensitive names, unknown ones ignored);
    a variable not set keeps its field's default, unvalidated (the caller's own default)."""

    model_config = SettingsConfigDict(
        case_sensitive=True, extra="ignore", frozen=True, validate_default=False
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the mapping :func:`read_environment` hands in (no .env file, no secrets dir)."""
        return (init_settings,)


class _GivenEnvironment(EnvSettingsSource):
    """pydantic-settings' environment source over a given mapping instead of ``os.environ``."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        # Surrounding blanks are dropped and a blank variable counts as unset.
        self._given = {k: v.strip() for k, v in environ.items() if v and v.strip()}
        super().__init__(settings_cls, case_sensitive=True)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return dict(self._given)


def read_environment(model: type[Model], environ: Mapping[str, str]) -> Model:
    """``model`` read from ``environ``; a bad value raises :class:`SettingsError` naming it."""
    values = _GivenEnvironment(model, environ)()
    try:
        return model(**values)
    except ValidationError as err:
        raise SettingsError(_message(err)) from None


def _message(err: ValidationError) -> str:
    """The first error as ``VARIABLE must be ...``: the validators' own words where they gave
    some, pydantic's otherwise (without the value, which may be a secret)."""
    first = err.errors(include_url=False, include_input=False)[0]
    name = ".".join(str(part) for part in first["loc"]) or "a setting"
    cause = (first.get("ctx") or {}).get("error")
    return f"{name} {cause}" if isinstance(cause, ValueError) else f"{name}: {first['msg']}"


def quoted(raw: object) -> str:
    return repr(str(raw)[:ECHOED])


def seconds(*, zero: bool = False) -> Callable[[Any], float]:
    """A positive number of seconds (``zero``: or 0, which turns the feature off)."""

    def parse(raw: Any) -> float:
        try:
            value = float(raw)
        except (TypeError, ValueError):
            value = math.nan
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            least = ">= 0" if zero else "> 0"
            raise ValueError(f"must be a number of seconds {least}, got {quoted(raw)}")
        return value

    return parse


def whole(least: int, most: int) -> Callable[[Any], int]:
    """A whole number from ``least`` to ``most``."""

    def parse(raw: Any) -> int:
        text = str(raw).strip()
        if not text.isdigit() or not least <= int(text) <= most:
            raise ValueError(f"must be a whole number from {least} to {most}, got {quoted(raw)}")
        return int(text)

    return parse


def one_of(choices: Sequence[str]) -> Callable[[Any], str]:
    """One of ``choices``, case-insensitive (kept lower-case)."""

    def parse(raw: Any) -> str:
        value = str(raw).lower()
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, got {quoted(value)}")
        return value

    return parse


def switch(raw: Any) -> bool:
    """``on``/``off`` (also true/false, 1/0, yes/no)."""
    value = str(raw).lower()
    if value in ("on", "true", "1", "yes"):
        return True
    if value in ("off", "false", "0", "no"):
        return False
    raise ValueError(f"must be on or off, got {quoted(value)}")
