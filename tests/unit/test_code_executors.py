"""Code executors: UnsafeLocalCodeExecutor's results, the code-block rules against
google-adk 2.13's, and what is refused.

Runs on: test process only (UnsafeLocalCodeExecutor starts real Python processes).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from google.genai import types

from adk import Agent
from adk.code_executors import BaseCodeExecutor, UnsafeLocalCodeExecutor
from adk.code_executors.code_execution_utils import (
    CodeExecutionInput,
    CodeExecutionResult,
    CodeExecutionUtils,
    File,
)
from adk.flows.llm_flows import code_execution
from adk.sessions.session import Session


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie, killed but not reaped yet, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def run(code: str, **options: Any) -> CodeExecutionResult:
    return UnsafeLocalCodeExecutor(**options).execute_code(None, CodeExecutionInput(code=code))


# ── UnsafeLocalCodeExecutor ─────────────────────────────────────────────────


def test_output_and_a_clean_exit_even_with_warnings_on_stderr() -> None:
    result = run("import sys\nprint('careful', file=sys.stderr)\nprint(6 * 7)")
    assert (result.stdout, result.stderr, result.exit_code) == ("42\n", "", 0)


def test_an_exception_gives_the_codes_own_traceback() -> None:
    result = run("x = 1\nx / 0")
    assert result.exit_code == 1
    assert result.stderr == (
        "Traceback (most recent call last):\n"
        '  File "<code>", line 2, in <module>\n'
        "ZeroDivisionError: division by zero\n"
    )


def test_a_silent_death_is_not_a_success() -> None:
    result = run("import os\nos._exit(3)")
    assert (result.stderr, result.exit_code) == ("Code execution exited with status 3.", 3)


def test_main_guard_runs_as_a_script() -> None:
    assert run("if __name__ == '__main__':\n    print('main')").stdout == "main\n"
    assert run("print(__name__)").stdout == "builtins\n"


def test_the_app_imports_as_in_the_worker() -> None:
    assert run("import adk.code_executors as m\nprint(m.__name__)").stdout == (
        "adk.code_executors\n"
    )


def test_a_timeout_ends_the_code_and_all_it_started_and_says_so() -> None:
    code = textwrap.dedent(
        """
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(child.pid, flush=True)
        time.sleep(60)
        """
    )
    started = time.monotonic()
    result = run(code, timeout_seconds=1)
    assert time.monotonic() - started < 5
    assert result.stderr == "Code execution timed out after 1 seconds."
    child = int(result.stdout.split()[0])  # what it printed before it was stopped is kept
    time.sleep(0.2)
    assert not alive(child)


def test_the_code_dies_with_the_worker(tmp_path: Path) -> None:
    """A worker SIGKILLed mid-execution: its code does not run on beside the attempt
    Temporal starts on another worker."""
    marker = tmp_path / "pid"
    worker = textwrap.dedent(
        f"""
        from adk.code_executors import UnsafeLocalCodeExecutor
        from adk.code_executors.code_execution_utils import CodeExecutionInput
        code = "import os, time\\nopen({str(marker)!r}, 'w').write(str(os.getpid()))\\ntime.sleep(60)"
        UnsafeLocalCodeExecutor().execute_code(None, CodeExecutionInput(code=code))
        """
    )
    process = subprocess.Popen([sys.executable, "-c", worker])
    try:
        deadline = time.monotonic() + 20
        while not marker.exists() or not marker.read_text():
            assert time.monotonic() < deadline, "the code never started"
            time.sleep(0.05)
        code_pid = int(marker.read_text())
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 3
        while alive(code_pid):
            assert time.monotonic() < deadline, "the code outlived its worker"
            time.sleep(0.05)
    finally:
        process.kill()


def test_stateful_and_optimize_data_file_are_refused_as_in_2_13() -> None:
    with pytest.raises(ValueError, match="Cannot set `stateful=True` in UnsafeLocalCodeExecutor"):
        UnsafeLocalCodeExecutor(stateful=True)
    with pytest.raises(ValueError, match="Cannot set `optimize_data_file=True`"):
        UnsafeLocalCodeExecutor(optimize_data_file=True)
    assert UnsafeLocalCodeExecutor().timeout_seconds == 300


def test_base_code_executor_is_abstract() -> None:
    with pytest.raises(TypeError, match="abstract"):
        BaseCodeExecutor()  # type: ignore[abstract]


# ── what is refused ─────────────────────────────────────────────────────────


class _Recording(BaseCodeExecutor):
    files: list[File] = []

    def execute_code(self, invocation_context: Any, code_execution_input: Any) -> Any:
        return CodeExecutionResult(stdout="made a chart", output_files=self.files)


def test_optimize_data_file_is_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match=r"_Recording\(optimize_data_file=True\)"):
        Agent(name="a", code_executor=_Recording(optimize_data_file=True))


async def test_output_files_need_artifacts_which_are_not_implemented() -> None:
    agent = Agent(name="a", code_executor=_Recording(files=[File(name="chart.png", content="")]))
    ctx = SimpleNamespace(session=Session(id="s", app_name="x", user_id="u"), invocation_id="e-1")
    with pytest.raises(NotImplementedError, match=r"output files \(chart.png\).*artifact"):
        await code_execution.execute(ctx, agent, "plot()")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name",
    [
        "ContainerCodeExecutor",
        "GkeCodeExecutor",
        "VertexAiCodeExecutor",
        "AgentEngineSandboxCodeExecutor",
    ],
)
def test_container_and_cloud_executors_raise_naming_themselves(name: str) -> None:
    import adk.code_executors

    with pytest.raises(NotImplementedError, match=name):
        getattr(adk.code_executors, name)


# ── the code-block rules, against google-adk 2.13's ─────────────────────────

DELIMITERS = [("```tool_code\n", "\n```"), ("```python\n", "\n```")]
CONTENTS = [
    [types.Part(text="Sure.\n```python\nprint(1)\n```\nand then")],
    [types.Part(text="a ```python\nx\n``` b ```tool_code\ny\n```")],
    [types.Part(text="```tool_code\nfirst\n```"), types.Part(text="```python\nsecond\n```")],
    [types.Part(text="one"), types.Part(text="```python\nacross\n```")],
    [types.Part(text="no code here")],
    [types.Part(text="```python\n\n```")],
    [types.Part(text="unclosed ```python\nprint(1)")],
    [
        types.Part(text="before"),
        types.Part.from_executable_code(code="print(2)", language=types.Language.PYTHON),
        types.Part(text="after"),
    ],
    [
        types.Part.from_executable_code(code="done()", language=types.Language.PYTHON),
        types.Part.from_code_execution_result(outcome=types.Outcome.OUTCOME_OK, output="ok"),
        types.Part(text="```python\nnext()\n```"),
    ],
]


@pytest.mark.parametrize("parts", CONTENTS)
def test_code_block_extraction_matches_2_13(parts: list[types.Part]) -> None:
    reference = pytest.importorskip("google.adk.code_executors.code_execution_utils")
    theirs = types.Content(role="model", parts=[p.model_copy(deep=True) for p in parts])
    ours = types.Content(role="model", parts=[p.model_copy(deep=True) for p in parts])
    expected = reference.CodeExecutionUtils.extract_code_and_truncate_content(theirs, DELIMITERS)
    assert CodeExecutionUtils.extract_code_and_truncate_content(ours, DELIMITERS) == expected
    assert ours == theirs


@pytest.mark.parametrize(
    "result",
    [
        dict(stdout="42\n"),
        dict(stdout=""),
        dict(stdout="x", stderr="boom"),
        dict(stdout="", output_files=["a.png", "b.csv"]),
        dict(stdout="drew", output_files=["a.png"]),
    ],
)
def test_result_part_matches_2_13(result: dict[str, Any]) -> None:
    reference = pytest.importorskip("google.adk.code_executors.code_execution_utils")
    names = result.pop("output_files", [])
    theirs = reference.CodeExecutionResult(
        **result, output_files=[reference.File(name=n, content="") for n in names]
    )
    ours = CodeExecutionResult(**result, output_files=[File(name=n, content="") for n in names])
    assert CodeExecutionUtils.build_code_execution_result_part(ours) == (
        reference.CodeExecutionUtils.build_code_execution_result_part(theirs)
    )


# ── what an operator sees ───────────────────────────────────────────────────


def test_the_web_ui_names_a_code_execution_and_shows_code_and_result() -> None:
    from adk.events.event import Event
    from workflows._ui import code_summary, event_lines

    assert code_summary("analyst", "UnsafeLocalCodeExecutor", "\n  import math\nprint(1)") == (
        "code: analyst · UnsafeLocalCodeExecutor · import math"
    )
    assert len(code_summary("a", "UnsafeLocalCodeExecutor", "x = '" + "y" * 500)) == 190
    code = Event(
        author="analyst",
        invocation_id="e-1",
        content=types.Content(
            role="model", parts=[CodeExecutionUtils.build_executable_code_part("a = 1\nprint(a)")]
        ),
    )
    failed = Event(
        author="analyst",
        invocation_id="e-1",
        content=types.Content(
            role="model",
            parts=[
                CodeExecutionUtils.build_code_execution_result_part(
                    CodeExecutionResult(stderr="NameError: b")
                )
            ],
        ),
    )
    assert event_lines(code) == ["**analyst** runs code: `a = 1; print(a)`"]
    assert event_lines(failed) == ["← code error: NameError: b"]
