"""Code execution on Temporal: each execution is an `adk.execute_code` activity.

Runs on: test process (worker in-process, on the session's local Temporal). A
finished execution is in history and never runs again on replay; a timeout is
reported as 2.13 reports it (to the model), and an executor that hangs past the
activity's own limit fails the invocation with a clear error instead of hanging.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from temporalio.api.enums.v1 import EventType
from temporalio.worker import Replayer

import adk.activity_options
from adk import Agent
from adk.code_executors import BaseCodeExecutor, UnsafeLocalCodeExecutor
from adk.code_executors.code_execution_utils import CodeExecutionResult
from adk.testing import MockModel
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

from .helpers import runner_for, turn

CODE_APP = Path(__file__).resolve().parents[1] / "apps" / "code_runner"


def code_block(code: str) -> str:
    return f"Let me run this.\n```python\n{code}\n```"


def scheduled(history: Any, name: str) -> list[Any]:
    return [
        e
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
        and e.activity_task_scheduled_event_attributes.activity_type.name == name
    ]


async def test_each_execution_is_an_activity_and_replay_does_not_run_it_again(
    temporal_env: Any, tmp_path: Path
) -> None:
    log = tmp_path / "runs.log"
    run = f"open({str(log)!r}, 'a').write('ran\\n')"
    agent = Agent(
        name="calc",
        model=MockModel.create(
            [code_block(f"{run}\nprint(6 * 7)"), code_block(f"{run}\nprint(42 + 1)"), "43."]
        ),
        code_executor=UnsafeLocalCodeExecutor(),
    )
    # every workflow task replays the history so far (no workflow cache)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "compute", session="replayed")
        handle = temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id("test_app", "u1", "replayed")
        )
        history = await handle.fetch_history()
    assert log.read_text() == "ran\nran\n"  # two executions, each once

    parts = [e.content.parts[-1] for e in events[1:]]
    assert [p.executable_code.code.endswith(")") for p in parts[0:3:2]] == [True, True]
    assert [p.code_execution_result.output for p in parts[1:4:2]] == [
        "Code execution result:\n42\n\n",
        "Code execution result:\n43\n\n",
    ]
    assert parts[4].text == "43."

    executions = scheduled(history, names.EXECUTE_CODE)
    assert [json.loads(e.user_metadata.summary.data) for e in executions] == [
        f"code: calc · UnsafeLocalCodeExecutor · {run}"
    ] * 2
    attributes = executions[0].activity_task_scheduled_event_attributes
    assert attributes.start_to_close_timeout.ToTimedelta() == timedelta(seconds=330)
    assert len(scheduled(history, names.MODEL_STEP)) == 3

    # the whole history replays on the current workflow code, running nothing
    replayer = Replayer(
        workflows=list(WORKFLOWS),
        data_converter=data_converter,
        workflow_runner=workflow_runner("strict"),
    )
    result = await replayer.replay_workflow(history)
    assert result.replay_failure is None
    assert log.read_text() == "ran\nran\n"


async def test_a_timeout_is_the_result_the_model_sees(temporal_env: Any) -> None:
    agent = Agent(
        name="calc",
        model=MockModel.create(
            [code_block("import time\nprint('started', flush=True)\ntime.sleep(60)"), "Too slow."]
        ),
        code_executor=UnsafeLocalCodeExecutor(timeout_seconds=1),
    )
    started = time.monotonic()
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "compute", session="slow")
    assert time.monotonic() - started < 15
    result = events[2].content.parts[0].code_execution_result
    assert result.outcome == "OUTCOME_FAILED"
    assert result.output == "Code execution timed out after 1 seconds."
    assert events[-1].content.parts[0].text == "Too slow."


class _Hangs(BaseCodeExecutor):
    """An executor that does not honour its own timeout."""

    timeout_seconds: int | None = 1

    def execute_code(self, invocation_context: Any, code_execution_input: Any) -> Any:
        time.sleep(4)
        return CodeExecutionResult(stdout="too late")


async def test_an_executor_that_hangs_fails_the_invocation_with_a_clear_error(
    temporal_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the activity's limit: the executor's timeout and this margin (30 s by default)
    monkeypatch.setattr(adk.activity_options, "CODE_TIMEOUT_MARGIN", timedelta(seconds=1))
    agent = Agent(
        name="calc",
        model=MockModel.create([code_block("print(1)"), "never"]),
        code_executor=_Hangs(),
    )
    started = time.monotonic()
    async with runner_for(temporal_env, agent) as runner:
        with pytest.raises(Exception) as raised:
            await turn(runner, "compute", session="hangs")
    assert time.monotonic() - started < 30
    message = str(raised.value)
    assert message == (
        "CodeExecutionTimeout: Code execution of agent calc failed: no attempt finished in"
        " time (START_TO_CLOSE timeout; an attempt may take 2 s: the executor's"
        " timeout_seconds and a margin); its executor did not stop the code"
    )


@pytest.mark.slow
async def test_a_worker_killed_mid_execution_runs_it_again_on_another(
    temporal_env: Any, tmp_path: Path
) -> None:
    """At-least-once: the execution in flight when its worker died runs again on the
    next worker (its program died with the first); the model step before it is not
    run again, and the invocation ends as an uninterrupted one."""
    from adk.sessions import SqliteSessionService
    from client import AgentClient

    from .test_durability import start_worker, stop, wait_until

    log = tmp_path / "code.log"
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"code-{tmp_path.name[-12:]}"
    env = {"CODE_RUNNER_LOG": str(log)}
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    workers = [start_worker(address, task_queue, tmp_path, "worker1", app=CODE_APP, env=env)]
    try:
        started = await agents.start(
            app_name="code_runner", user_id="u1", session_id="killed", new_message="compute"
        )
        await wait_until(
            lambda: log.exists() and log.read_text() == "start\n",
            timeout=30,
            what="the program to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()
        assert workers[0].wait() == -9
        workers.append(
            start_worker(address, task_queue, tmp_path, "worker2", app=CODE_APP, env=env)
        )
        result = await asyncio.wait_for(started.handle.result(), timeout=60)
        history = await started.handle.fetch_history()
    finally:
        for proc in workers:
            stop(proc)
    assert result.final_text == "The answer is 42."
    assert log.read_text() == "start\nstart\nend\n"  # the first run died with its worker
    session = await store.get_session(app_name="code_runner", user_id="u1", session_id="killed")
    store.close()
    assert session is not None
    outputs = [
        p.code_execution_result.output
        for e in session.events
        for p in (e.content.parts if e.content else [])
        if p.code_execution_result
    ]
    assert outputs == ["Code execution result:\n42\n\n"]
    assert len(scheduled(history, names.MODEL_STEP)) == 2
    attempts = [
        e.activity_task_started_event_attributes.attempt
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
    ]
    assert attempts == [1, 2, 1]  # model step, the execution twice, model step


async def test_the_code_analyst_example_answers_from_what_its_code_printed(
    temporal_env: Any,
) -> None:
    """examples/code_analyst (offline model): code over the question's numbers, its
    output fed back, the answer from it."""
    from adk.runners import Runner
    from worker import load_app

    app = load_app(str(Path(__file__).resolve().parents[2] / "examples" / "code_analyst"))
    async with Runner(app=app, temporal_client=temporal_env.client) as runner:
        await runner.session_service.create_session(
            app_name="code_analyst", user_id="u1", session_id="s1"
        )
        events = await turn(runner, "Stats of 3, 5, 8 and 13?")
    assert [e.author for e in events] == ["user"] + ["code_analyst"] * 3
    assert events[1].content.parts[-1].executable_code.code.startswith("import statistics")
    assert events[3].content.parts[0].text == (
        "Computed with Python:\ncount 4\nmean 7.25\nmedian 6.5\nstdev 4.349"
    )
