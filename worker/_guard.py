"""The guard that makes a custom agent's nondeterministic orchestration fail clearly.

Runs on: process side (installed once per worker process, when an app has a
custom agent). A custom agent's `_run_async_impl` runs in the workflow; while
its own code runs (adk/agents/_orchestrating.py sets the flag), these hooks
refuse what would make a replay take another path:

- clocks, sleeps and randomness called by the app's own code: `time.time`,
  `time.monotonic`, `time.perf_counter` (and their `_ns`), `time.sleep`, `random.*`,
  `uuid.uuid1/uuid4`, `os.urandom` (patched with a wrapper that checks the
  flag; a library's or the standard library's own calls, logging's clock
  for one, pass);
- file, network and process access from anywhere below the orchestration
  (an audit hook: `open`, sockets, subprocesses...), except the
  import system reading a module and tracebacks reading source lines.

Everywhere else (activities, durable-adk's workflows, other threads) the flag
is unset and each hook returns at once. `datetime.now()` cannot be patched (a
C type) and is not caught: the README says so.
"""

from __future__ import annotations

import functools
import os
import random
import sys
import sysconfig
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from adk.agents._orchestrating import refuse, running

_installed = False

_CLOCKS = (
    "time",
    "time_ns",
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
)
_RANDOM = (
    "betavariate",
    "choice",
    "choices",
    "expovariate",
    "gauss",
    "getrandbits",
    "lognormvariate",
    "normalvariate",
    "randbytes",
    "randint",
    "random",
    "randrange",
    "sample",
    "shuffle",
    "triangular",
    "uniform",
)
_AUDITED = {
    "open": "open()",
    "os.listdir": "os.listdir()",
    "os.scandir": "os.scandir()",
    "os.remove": "os.remove()",
    "os.rename": "os.rename()",
    "os.mkdir": "os.mkdir()",
    "os.system": "os.system()",
    "os.exec": "os.exec*()",
    "os.posix_spawn": "os.posix_spawn()",
    "os.spawn": "os.spawn*()",
    "subprocess.Popen": "subprocess",
    "socket.connect": "a network connection (socket.connect)",
    "socket.getaddrinfo": "a network lookup (socket.getaddrinfo)",
    "socket.gethostbyname": "a network lookup (socket.gethostbyname)",
    "socket.bind": "a network socket (socket.bind)",
    "urllib.Request": "a network request (urllib)",
}
_LIBRARY_DIRS = tuple(
    {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
)
_FRAMEWORK = ("adk", "workflows", "activities", "worker", "temporalio", "pydantic", "google")
_IMPORTING = ("importlib", "_frozen_importlib", "zipimport", "linecache", "traceback")


_APP_DIRS: set[str] = set()
"""Folders of the custom agents' modules: their code is the app's even when it is
installed as a package (in site-packages)."""


def install(app_dirs: Iterable[str] = ()) -> None:
    """Patch the clocks and randomness and add the audit hook (once per process);
    `app_dirs`: the folders of the custom agents' modules."""
    global _installed
    _APP_DIRS.update(os.path.join(d, "") for d in app_dirs)
    if _installed:
        return
    _installed = True
    for name in _CLOCKS:
        _wrap(time, name, f"time.{name}()")
    _wrap(time, "sleep", "time.sleep() (`await asyncio.sleep(...)` is a durable timer there)")
    for name in _RANDOM:
        _wrap(random, name, f"random.{name}()")
    for name in ("uuid1", "uuid4"):
        _wrap(uuid, name, f"uuid.{name}()")
    _wrap(os, "urandom", "os.urandom()")
    sys.addaudithook(_audit)


def _wrap(module: Any, name: str, what: str) -> None:
    original: Callable[..., Any] | None = getattr(module, name, None)
    if original is None or getattr(original, "_adk_guarded", False):
        return

    @functools.wraps(original)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if running() is not None and _app_code(sys._getframe(1)):
            refuse(what)
        return original(*args, **kwargs)

    guarded._adk_guarded = True  # type: ignore[attr-defined]
    setattr(module, name, guarded)


def _app_code(frame: Any) -> bool:
    """Whether the frame is the app's own code (not a library's, nor ours)."""
    module = str(frame.f_globals.get("__name__", ""))
    if module.split(".", 1)[0] in _FRAMEWORK:
        return False
    filename = frame.f_code.co_filename
    in_library = filename.startswith(_LIBRARY_DIRS)
    # an app installed as a package is in site-packages: its folder says it is the app
    # (a folder above the libraries, a project root holding .venv, says nothing of them)
    return not in_library or any(
        filename.startswith(d) and d.startswith(_LIBRARY_DIRS) for d in _APP_DIRS
    )


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if running() is None:
        return
    what = _AUDITED.get(event)
    if what is None:
        return
    frame: Any = sys._getframe(1)
    while frame is not None:  # the import system reading a module is fine
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith(_IMPORTING) or frame.f_code.co_filename.startswith("<frozen"):
            return
        frame = frame.f_back
    if event == "open" and args:
        what = f"open({str(args[0])!r})"
    refuse(what)
