"""How a command starts and ends: an ask the home's warm process can answer is forwarded to it;
otherwise the cyclic garbage collector is paused while the command's modules import, the local
embedding model of an ask or chat loads on a thread meanwhile, a command run as the `bosun`
process leaves the warm ask process up beside the embedded server (:mod:`agent.warm.keep`),
and a one-shot one ends without the interpreter's teardown (docs/measurements.md, start-up)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.settings import Settings

logger = logging.getLogger(__name__)

#: Commands that embed their first question: their embedding model loads on a thread while
#: their modules import (:func:`preload`).
PRELOADED = frozenset({"ask", "chat"})
HELP = frozenset({"-h", "--help"})
#: One-shot commands that load the graph or the model stack: run as the `bosun` process, they end
#: it when done (:func:`finish`) instead of tearing down the ~1,000 modules they imported.
FINISHED = frozenset({"ask", "search"})


def forwarded(command: str | None, argv: list[str]) -> int | None:
    """The exit status of an ask that the home's warm process answered (None: answer here)."""
    if command != "ask" or {"-v", "--verbose", *HELP} & set(argv):
        return None
    from agent.warm.client import forward

    try:
        return forward(argv)  # None when no warm process matches
    except KeyboardInterrupt:  # the warm process cancels the turn when we go
        return 130


@contextlib.contextmanager
def importing() -> Iterator[None]:
    """Pause the cyclic collector while a command's modules import, then freeze what they built.

    Importing LangGraph, LangChain and pydantic leaves ~240,000 tracked objects and almost no
    cyclic garbage, yet the collector walks the young ones every 700 allocations: about a
    seventh of the imports' CPU time (docs/measurements.md, start-up). What the imports built
    (modules, classes, schemas) lives as long as the process, so :func:`gc.freeze` moves it out
    of every later collection's way instead of walking it three generations deep."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def adapted_models(settings: Settings) -> bool:
    """Whether `bosun adapt` left a model for the main collection (its folder holds one): the
    collection may then be embedded with it instead of the stock model."""
    folder = settings.home / "models" / settings.collection
    return any(folder.glob("minilm-adapted-*.onnx"))


def preload_embeddings(settings: Settings) -> threading.Thread | None:
    """Start loading the stock local embedding model on a thread, the instance the command's
    services will use (:func:`providers.embeddings.build_embeddings`): onnxruntime builds its
    session without holding the GIL, so the load overlaps the imports that follow. None when
    another model will be used (a remote provider, or an adapted collection: the stock model
    would load for nothing). The first embedding waits for the load (:class:`MiniLMEmbeddings`
    loads once, under a lock)."""
    if (settings.embeddings or "").strip().lower() != "local" or adapted_models(settings):
        return None
    from providers.embeddings import build_embeddings
    from providers.minilm import MiniLMEmbeddings

    model = build_embeddings(settings.providers)
    if not isinstance(model, MiniLMEmbeddings):
        return None
    return model.load_in_background()


def preload(command: str | None, argv: list[str]) -> None:
    """For `bosun ask` and `bosun chat` (not their help): :func:`preload_embeddings` under the
    settings of the environment."""
    if command not in PRELOADED or HELP & set(argv):
        return
    from agent.errors import SettingsError
    from agent.settings import Settings

    try:
        settings = Settings.from_env()
    except SettingsError as err:  # the command itself reports it, with its exit status
        logger.debug("no model loaded ahead: %s", err)
        return
    preload_embeddings(settings)


def prepare(args: argparse.Namespace) -> None:
    """Before a parsed command runs: undecodable input replaced (stdin may not be a text
    stream), logging at the level ``--verbose`` asks for (PostgreSQL's chatter only then)."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.verbose:
        logging.getLogger("pgserver").setLevel(logging.ERROR)


def beside(args: argparse.Namespace, run: Callable[[argparse.Namespace], int]) -> int:
    """``run(args)`` as the `bosun` command runs it: the warm ask process is left up beside
    the embedded server (:mod:`agent.warm.keep`); the command's exit status."""
    from agent.warm import keep

    keep.before(args)
    code = run(args)
    keep.after(args.command, code)
    return code


def finish(command: str | None, code: int) -> None:
    """End the `bosun` process of a one-shot command (:data:`FINISHED`) that returned ``code``:
    threads that are not daemons joined (a model still loading), output flushed and the exit
    handlers run (log handlers, the embedded server handed to its linger process), then no
    interpreter teardown: freeing the modules, classes and schemas the command imported cost
    a cold ask about 0.2 s of CPU and nothing else (docs/measurements.md, start-up). Returns
    for other commands. Only the console script calls it: a caller of ``main(argv)`` keeps its
    process."""
    if command not in FINISHED:
        return
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and not thread.daemon:
            thread.join()
    from agent.interrupts import leave

    leave(code)
