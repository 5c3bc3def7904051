"""A cold command's start-up (agent/startup.py): the collector paused while modules import, and
the local embedding model loading on a thread meanwhile."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.startup import preload_embeddings
from providers.minilm import BASE_MODEL_ID, MiniLMEmbeddings, ModelIntegrityError


def _python(code: str, env: dict[str, str] | None = None) -> str:
    """The last line a fresh interpreter prints after ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    return done.stdout.strip().splitlines()[-1]


#: Counts the collector's passes (in a fresh interpreter; ``passes.clear()`` starts again).
COUNT_PASSES = (
    "import gc, json\npasses = []\n"
    "gc.callbacks.append(lambda phase, info: passes.append(1) if phase == 'start' else None)\n"
)


def test_imports_run_without_collector_passes_and_leave_it_on_and_frozen() -> None:
    code = (
        COUNT_PASSES + "from agent.startup import importing\n"
        "passes.clear()\n"
        "with importing():\n"
        "    made = [[{}] for _ in range(100_000)]\n"  # ~140 passes' worth of allocations
        "during = len(passes)\n"
        "print(json.dumps([during, gc.isenabled(), gc.get_freeze_count() > 0]))"
    )
    assert json.loads(_python(code)) == [0, True, True]


def test_a_collector_that_was_off_stays_off() -> None:
    code = (
        "import gc, json\nfrom agent.startup import importing\ngc.disable()\n"
        "with importing():\n    pass\nprint(json.dumps(gc.isenabled()))"
    )
    assert json.loads(_python(code)) is False


def test_the_cli_imports_a_command_with_the_collector_paused() -> None:
    # `bosun ask --help` imports the conversation commands (LangGraph, LangChain, the graph).
    code = (
        COUNT_PASSES + "from agent.cli import main\n"
        "passes.clear()\n"
        "try:\n    main(['ask', '--help'])\nexcept SystemExit:\n    pass\n"
        "import sys\n"
        "print(json.dumps([len(passes), 'langgraph.graph' in sys.modules, gc.isenabled()]))"
    )
    assert json.loads(_python(code)) == [0, True, True]


def _settings(home: Path, **env: str) -> Settings:
    return Settings.from_env({"BOSUN_HOME": str(home), **env})


def test_the_stock_model_loads_on_a_thread_into_the_instance_services_use(tmp_path: Path) -> None:
    from providers.embeddings import build_embeddings

    settings = _settings(tmp_path)
    thread = preload_embeddings(settings)
    assert thread is not None
    thread.join(timeout=120)
    model = build_embeddings(settings.providers)
    assert isinstance(model, MiniLMEmbeddings) and model.loaded


def test_nothing_loads_ahead_for_a_remote_model(tmp_path: Path) -> None:
    settings = _settings(tmp_path, BOSUN_EMBEDDINGS="gemini", GOOGLE_API_KEY="test-key")
    assert preload_embeddings(settings) is None


def test_nothing_loads_ahead_for_an_adapted_collection(tmp_path: Path) -> None:
    folder = tmp_path / "models" / "bosun"
    folder.mkdir(parents=True)
    (folder / "minilm-adapted-0123456789ab.onnx").write_bytes(b"an adapted model")
    assert preload_embeddings(_settings(tmp_path)) is None
    # another collection's adapted model does not stop the main one's stock model
    assert preload_embeddings(_settings(tmp_path, BOSUN_COLLECTION="other")) is not None


def test_a_failed_load_ahead_is_logged_and_the_first_embedding_raises_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model_file = tmp_path / "model.onnx"
    model_file.write_bytes(b"not the pinned model")
    model = MiniLMEmbeddings(model_path=model_file, model_sha256="0" * 64, name="broken")
    with caplog.at_level(logging.INFO, logger="providers.minilm"):
        model.load_in_background().join(timeout=60)
    assert "loading broken ahead failed: sha256 mismatch" in caplog.text
    assert not model.loaded
    with pytest.raises(ModelIntegrityError, match="sha256 mismatch"):
        model.embed_query("what happened?")


def test_ask_starts_the_model_load_before_langgraph_imports(tmp_path: Path) -> None:
    # An import hook notes the threads alive when LangGraph starts importing; the ask then
    # fails on the refused database (one line, exit status 1), after all its imports ran.
    code = (
        "import json, sys, threading\n"
        "seen = []\n"
        "class Spy:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'langgraph' and not seen:\n"
        "            seen.append(sorted(t.name for t in threading.enumerate()))\n"
        "        return None\n"
        "sys.meta_path.insert(0, Spy())\n"
        "from agent.cli import main\n"
        "status = main(['ask', 'what happened?'])\n"
        "print(json.dumps([status, seen[0] if seen else None]))"
    )
    env = {
        "BOSUN_HOME": str(tmp_path),
        "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none",
        "BOSUN_WARM_ASK": "off",
        "BOSUN_CHAT_MODEL": "",
    }
    status, threads = json.loads(_python(code, env))
    assert status != 0
    assert f"load {BASE_MODEL_ID}" in threads


#: A fresh `bosun` process (the console script's way: ``main()`` reads ``sys.argv``) that notes a
#: thread of its own ending, its exit handlers and its interpreter's teardown (the audit event
#: raised when the interpreter's state is cleared) on stdout.
CONSOLE_SCRIPT = (
    "import atexit, os, sys, threading, time\n"
    "def audit(event, args, write=os.write):\n"
    "    if event == 'cpython.PyInterpreterState_Clear':\n"
    "        write(1, b'torn down\\n')\n"
    "sys.addaudithook(audit)\n"
    "atexit.register(print, 'exit handlers ran', flush=True)\n"
    "def late():\n"
    "    time.sleep(0.5)\n"
    "    print('thread finished', flush=True)\n"
    "threading.Thread(target=late).start()\n"
    "sys.argv = ['bosun', *sys.argv[1:]]\n"
    "from agent.cli import main\n"
    "sys.exit(main())\n"
)


@pytest.mark.parametrize(
    ("argv", "teardown"),
    [(["search", "what happened?"], False), (["ask", "what happened?"], False), (["stop"], True)],
)
def test_a_one_shot_query_command_ends_its_process_without_the_teardown(
    tmp_path: Path, argv: list[str], teardown: bool
) -> None:
    # The database refuses: the query commands fail (one line, exit status 1) after their
    # imports ran; `bosun stop` (nothing to stop) is not one of them and tears down as usual.
    env = {
        **os.environ,
        "BOSUN_HOME": str(tmp_path),
        "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none",
        "BOSUN_WARM_ASK": "off",
        "BOSUN_CHAT_MODEL": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    lines = done.stdout.splitlines()
    assert (done.returncode != 0) == (argv[0] != "stop"), done.stderr
    assert lines.index("thread finished") < lines.index("exit handlers ran")  # both, in order
    assert ("torn down" in lines) is teardown


def test_a_caller_of_main_with_arguments_keeps_its_process() -> None:
    code = (
        "import os\nfrom agent.cli import main\n"
        "os.environ['DATABASE_URL'] = 'postgresql://nobody@127.0.0.1:9/none'\n"
        "status = main(['search', 'what happened?'])\nprint('still here', status)"
    )
    assert _python(code) == "still here 1"
