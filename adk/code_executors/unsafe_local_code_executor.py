"""UnsafeLocalCodeExecutor: runs model-written code on the worker's machine (google-adk 2.13's).

Runs on: activity side (the `adk.execute_code` activity, in a thread of the worker).

As in 2.13, each execution is a fresh Python interpreter (the worker's own
`sys.executable` and import path), fed the code on stdin, in a process group of its
own: a timeout ends it and everything it started, and so does the worker's death. It is not a sandbox: the code
has the worker's user, files, network and environment (API keys included). See the
README ("Code execution") before using it.
"""

from __future__ import annotations

import contextlib
import re
import signal
import sys
from typing import TYPE_CHECKING, Any

from pydantic import Field

from .base_code_executor import BaseCodeExecutor
from .code_execution_utils import CodeExecutionInput, CodeExecutionResult

if TYPE_CHECKING:
    import subprocess

    from ..agents.invocation_context import InvocationContext

# `os` and `subprocess` are imported where they are used: the workflow side imports
# this package (for the agents' types) and must not import process I/O.

GRACE_SECONDS = 5
"""After a timeout: how long the code gets to end on SIGTERM, then to flush after SIGKILL."""

_BOOTSTRAP = """
import os, sys, threading, time, traceback
def orphaned(parent=os.getppid()):
    while os.getppid() == parent:
        time.sleep(0.5)
    if hasattr(os, 'killpg'):
        os.killpg(0, 9)
threading.Thread(target=orphaned, daemon=True).start()
run_name = sys.argv[1]
del sys.argv[1:]
scope = {'__name__': run_name} if run_name else {}
source = sys.stdin.buffer.read().decode('utf-8')
try:
    exec(compile(source, '<code>', 'exec'), scope, scope)
except SystemExit:
    raise
except BaseException as error:
    trace = error.__traceback__
    traceback.print_exception(
        type(error), error, trace.tb_next if trace else None, file=sys.stderr
    )
    sys.exit(1)
"""
"""What the child interpreter runs: the code, with its traceback (not this script's
frame) on stderr and status 1 when it raises; its own exit status when it exits.
durable-adk's one addition to 2.13's: a daemon thread that ends the code (and all it
started) within half a second when the worker that ran it dies, so the code does not
go on beside the attempt Temporal then runs on another worker."""

_MAIN_GUARD = re.compile(r"if\s+__name__\s*==\s*['\"]__main__['\"]")


def _signal_group(group: int, sig: int) -> None:
    import os

    if hasattr(os, "killpg"):
        with contextlib.suppress(OSError):  # the group may be gone already
            os.killpg(group, sig)


def _stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    """End a timed-out execution and whatever it started; what it wrote until then."""
    import subprocess

    _signal_group(process.pid, signal.SIGTERM)  # it leads its own group
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(GRACE_SECONDS)
    # a child ignoring SIGTERM would keep the pipes open: kill the group regardless
    _signal_group(process.pid, signal.SIGKILL)
    process.kill()
    try:
        return process.communicate(timeout=GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        return "", ""


class UnsafeLocalCodeExecutor(BaseCodeExecutor):
    """Executes code in a Python process on the worker's machine: no isolation."""

    stateful: bool = Field(default=False, frozen=True, exclude=True)
    optimize_data_file: bool = Field(default=False, frozen=True, exclude=True)
    timeout_seconds: int | None = 300
    """Wall-clock limit of one execution (None: no limit, as in 2.13; durable-adk's
    activity then allows it an hour)."""

    def __init__(self, **data: Any) -> None:
        if data.get("stateful"):
            raise ValueError("Cannot set `stateful=True` in UnsafeLocalCodeExecutor.")
        if data.get("optimize_data_file"):
            raise ValueError("Cannot set `optimize_data_file=True` in UnsafeLocalCodeExecutor.")
        super().__init__(**data)

    def execute_code(
        self, invocation_context: InvocationContext, code_execution_input: CodeExecutionInput
    ) -> CodeExecutionResult:
        import os
        import subprocess

        code = code_execution_input.code
        # the worker's own secrets stay out of model-written code (the model API keys
        # stay in, as google-adk 2.13 leaves them: its code may call the model)
        env = {
            name: value
            for name, value in os.environ.items()
            if name != "DURABLE_ADK_TEMP_STATE_KEY"
            and not name.startswith(("TEMPORAL_API_KEY", "TEMPORAL_TLS"))
        }
        # the application's modules import as they do in the worker
        env["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
        env["PYTHONIOENCODING"] = "utf-8"  # a pipe would take the locale's encoding
        run_name = "__main__" if _MAIN_GUARD.search(code) else ""
        process = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP, run_name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            errors="replace",
            env=env,
            start_new_session=True,  # a group of its own: a timeout ends all it started
        )
        try:
            stdout, stderr = process.communicate(input=code, timeout=self.timeout_seconds)
        except subprocess.TimeoutExpired:
            stdout, stderr = _stop(process)
            note = f"Code execution timed out after {self.timeout_seconds} seconds."
            stderr = f"{stderr}\n{note}" if stderr else note
        else:
            if process.returncode == 0:
                stderr = ""  # warnings on stderr do not make a successful run a failure
            elif not stderr:  # killed by a signal, or os._exit: never a silent success
                stderr = f"Code execution exited with status {process.returncode}."
        return CodeExecutionResult(
            stdout=stdout, stderr=stderr, output_files=[], exit_code=process.returncode
        )
