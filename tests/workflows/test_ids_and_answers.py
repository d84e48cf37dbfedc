"""Workflow ids that never collide, and answers that must fit, on a real local Temporal.

User `ada:s1` with session `x` and user `ada` with session `s1:x` once shared a
workflow id; now each session has its own, an answer names the session it is
for, and an answer whose value does not fit its request is refused by the
update's validator (nothing is written).
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Awaitable
from typing import Any

import pytest
from temporalio.client import WorkflowUpdateFailedError

from adk import Agent, SequentialAgent
from adk.testing import MockModel
from client import AgentClient, AnswerRejectedError, Invocation
from client._cli import EXIT_USAGE, parser
from client._exits import explain
from workflows import names
from workflows.contracts import HumanAnswer

from .helpers import runner_for, simplify, turn
from .test_human_in_the_loop import bank_agent, finish, settled_history, waiting_for


async def _start(runner: Any, user: str, session: str) -> tuple[AgentClient, Invocation]:
    temporal = await runner._ensure_started()
    client = AgentClient(temporal, runner.session_service, task_queue=runner.task_queue)
    invocation = await client.start(
        app_name="test_app", user_id=user, session_id=session, new_message="send 500 to bob"
    )
    return client, invocation


async def _cli(temporal_env: Any, tmp_path: Any, *argv: str) -> int:
    address = temporal_env.client.service_client.config.target_host
    args = parser().parse_args(["--address", address, "--db", str(tmp_path / "s.db"), *argv])
    try:  # (as client.__main__ does, within this test's event loop)
        return int(await args.handler(args))
    except Exception as error:
        code, text = explain(error, args)
        print(f"error: {text}", file=sys.stderr)
        return code


async def test_the_sessions_old_ids_confused_wait_side_by_side(temporal_env, tmp_path, capsys):
    runs: list[Any] = []
    agent = bank_agent(runs)  # (the script's replies are per session)
    tag = uuid.uuid4().hex[:6]
    async with runner_for(temporal_env, agent) as runner:
        client, first = await _start(runner, f"ada:{tag}", "x")
        [asked_first] = await waiting_for(client, first)
        _, second = await _start(runner, "ada", f"{tag}:x")
        [asked_second] = await waiting_for(client, second)
        assert first.workflow_id == f"adk:test_app:ada%3A{tag}:x"
        assert second.workflow_id == f"adk:test_app:ada:{tag}%3Ax"
        # an answer naming the other session is refused, and nothing is written
        before = await settled_history(first.handle)
        with pytest.raises(WorkflowUpdateFailedError) as refused:
            await first.handle.execute_update(
                names.UPDATE_APPROVE,
                HumanAnswer(id=asked_first.id, kind="approve", session=second.session),
            )
        assert "does not work on session" in str(refused.value.cause)
        with pytest.raises(WorkflowUpdateFailedError) as unnamed:
            await first.handle.execute_update(
                names.UPDATE_APPROVE, HumanAnswer(id=asked_first.id, kind="approve")
            )
        assert "does not name the session it is for" in str(unnamed.value.cause)
        assert await settled_history(first.handle) == before
        # the CLI answers the second by its id; the first still waits
        assert (
            await _cli(temporal_env, tmp_path, "approve", second.workflow_id, asked_second.id) == 0
        )
        assert "approve recorded for transfer" in capsys.readouterr().out
        await finish(runner, second)
        assert [r.id for r in (await client.status(first.workflow_id)).pending] == [asked_first.id]
        await client.approve(first.workflow_id, asked_first.id)
        await finish(runner, first)
    assert runs == [(True, None), (True, None)]


async def test_answers_that_do_not_fit_are_refused(temporal_env, tmp_path, capsys):
    runs: list[Any] = []
    async with runner_for(temporal_env, bank_agent(runs)) as runner:
        client, invocation = await _start(runner, "u1", f"fit-{uuid.uuid4().hex[:8]}")
        [request] = await waiting_for(client, invocation)
        wid, handle = invocation.workflow_id, invocation.handle

        async def refused(answer: Awaitable[Any], why: str) -> None:
            before = await settled_history(handle)
            with pytest.raises((AnswerRejectedError, WorkflowUpdateFailedError)) as error:
                await answer
            text = str(getattr(error.value, "cause", None) or error.value)
            assert why in text, text
            assert await settled_history(handle) == before

        await refused(client.approve(wid, request.id, [1, 2]), "transfer asked for no payload")
        reject = HumanAnswer(id=request.id, kind="reject", payload=1, session=invocation.session)
        await refused(handle.execute_update(names.UPDATE_REJECT, reject), "reject takes no")
        # the CLI: one line, exit code 2
        argv = ("approve", wid, request.id, "--payload", "[1,2]")
        assert await _cli(temporal_env, tmp_path, *argv) == EXIT_USAGE
        err = capsys.readouterr().err
        [line] = [line for line in err.splitlines() if "no payload" in line]
        assert line.startswith("error: transfer asked for no payload")
        child_id = f"{wid}/{invocation.invocation_id}/bank#1"
        assert await _cli(temporal_env, tmp_path, "approve", child_id, request.id) == EXIT_USAGE
        assert f"answer through the invocation '{wid}'" in capsys.readouterr().err
        await client.approve(wid, request.id)
        await finish(runner, invocation)
    assert runs == [(True, None)]


async def test_ids_that_cannot_name_an_invocation_are_refused_first(temporal_env, tmp_path, capsys):
    async with runner_for(temporal_env, bank_agent([])) as runner:
        with pytest.raises(ValueError, match=r"The user id 'a\\nb' contains a control"):
            await turn(runner, "hi", user="a\nb", session="s1")
        with pytest.raises(ValueError, match="The session id is empty"):
            await turn(runner, "hi", session="")
        with pytest.raises(ValueError, match="too long together"):
            await _start(runner, "u1", "%" * 300)
        assert (
            await runner.session_service.get_session(
                app_name="test_app", user_id="a\nb", session_id="s1"
            )
            is None
        )
    argv = ("run", "hi", "--app", "test_app", "--user", "", "--session", "s1")
    assert await _cli(temporal_env, tmp_path, *argv) == EXIT_USAGE
    err = capsys.readouterr().err  # (other tests' loggers may write here in a full run)
    assert [line for line in err.splitlines() if "The user id" in line] == [
        "error: The user id is empty (or blank)."
    ]


async def test_unusual_ids_run_with_child_runs_under_them(temporal_env):
    first = Agent(name="first", model=MockModel.create(["one"]))
    second = Agent(name="second", model=MockModel.create(["two"]))
    pipeline = SequentialAgent(name="pipeline", sub_agents=[first, second])
    user, session = "josé@example.com", f"50% off/déjà vu: 'q' {uuid.uuid4().hex[:6]}"
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go", user=user, session=session)
    assert simplify(events)[1:] == [("first", "one"), ("second", "two")]
    workflow_id = names.invocation_workflow_id("test_app", user, session)
    assert workflow_id.startswith("adk:test_app:josé@example.com:50%25%20off%2Fdéjà%20vu%3A%20%27q")
    assert names.session_of(workflow_id) == ("test_app", user, session)
    handle = temporal_env.client.get_workflow_handle(workflow_id)
    described = await handle.describe()
    assert described.typed_search_attributes.get(names.SA_USER) == user
    assert described.typed_search_attributes.get(names.SA_SESSION) == session
    children = [
        e.start_child_workflow_execution_initiated_event_attributes.workflow_id
        for e in (await handle.fetch_history()).events
        if e.HasField("start_child_workflow_execution_initiated_event_attributes")
    ]
    invocation_id = events[0].invocation_id
    assert children == [
        f"{workflow_id}/{invocation_id}/first#1",
        f"{workflow_id}/{invocation_id}/second#2",
    ]
