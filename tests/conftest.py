"""Every test runs offline: provider and tracing keys from the developer's shell are ignored.

Tests are tiered by folder: ``unit/`` (no database), ``integration/`` (real PostgreSQL) and
``e2e/`` (the CLI, servers, a browser); the folder sets the marker, so the quick tier
``pytest -m "not integration and not e2e"`` can never pick up a slow test by accident."""

import signal
from pathlib import Path

import pytest

TIERS = {"integration", "e2e"}

PROVIDER_VARIABLES = (
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "COHERE_API_KEY",
    "BOSUN_CHAT_MODEL",
    "BOSUN_CHAT_BASE_URL",
    "BOSUN_EMBEDDINGS",
    "BOSUN_CROSS_ENCODER_DIR",
    "LANGFUSE_PUBLIC_KEY",
    "LANGFUSE_SECRET_KEY",
    "LANGFUSE_BASE_URL",
    "LANGFUSE_HOST",
)


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C back to its default when pytest was started with SIGINT ignored (a shell's
    ``cmd &`` does that): the processes the interrupt tests signal would inherit the ignore,
    and those tests would hang instead of testing the product's Ctrl-C."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGSMITH_TRACING", "false")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The workspace's shared real data folder, or a skip saying it is absent (a clone outside
    the workspace has none)."""
    path = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    if not path.is_dir():
        pytest.skip(f"shared data not present at {path}")
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tier = item.path.parent.name
        if tier in TIERS:
            item.add_marker(getattr(pytest.mark, tier))
