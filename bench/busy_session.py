"""What a message for a busy session costs under the `queue` and `interrupt` policies.

Run: `python -m bench.busy_session [--trials N] [--reuse-interval-default]`. Prints
figures; asserts nothing. See README, *A message while the agent is busy*.

Runs on: process side. A Runner with its embedded dev server and in-process worker.
Per trial, in a fresh session: a first message whose invocation calls a 0.5 s tool,
then, 0.2 s later, a second message. Measured:

- start: the first message's `AgentClient.start`;
- submit: the second's (a start the running workflow refuses, then the update);
- hand-over: from the first run's last step done to the next run's begin recorded
  (from the histories);
- second done: from the second's submit to the end of its stream.

`--reuse-interval-default` runs the dev server with Temporal's default
`history.workflowIdReuseMinimalInterval` (1 s) instead of the project's 0.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from google.genai import types

import durable_adk.runner as runner_module
from adk import Agent
from adk.apps.app import App
from adk.runners import Runner
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS
from workflows import names

_ACTIVITY_DONE, _MARKER = 12, 25  # history event types


async def slow() -> dict:
    """Takes half a second."""
    await asyncio.sleep(0.5)
    return {"ok": True}


def reply(request: Any) -> Any:
    last = request.contents[-1]
    if last.parts[0].function_response:
        return "done"
    if any(part.text == "first" for part in last.parts):
        return types.Part.from_function_call(name="slow", args={})
    return "quick"


async def trial(runner: Runner, client: AgentClient, session: str) -> tuple[float, ...]:
    temporal = client.temporal
    started = time.perf_counter()
    first = await client.start(
        app_name="bench", user_id="u", session_id=session, new_message="first"
    )
    start = time.perf_counter() - started
    await asyncio.sleep(0.2)
    started = time.perf_counter()
    second = await client.start(
        app_name="bench", user_id="u", session_id=session, new_message="second"
    )
    submit = time.perf_counter() - started
    try:
        [e async for e in client.events(first)]
    except Exception:  # interrupted
        pass
    [e async for e in client.events(second)]
    done = time.perf_counter() - started
    workflow_id = names.invocation_workflow_id("bench", "u", session)
    earlier = await temporal.get_workflow_handle(workflow_id, run_id=first.run_id).fetch_history()
    later = await temporal.get_workflow_handle(workflow_id).fetch_history()
    ended = [e for e in earlier.events if e.event_type in (_ACTIVITY_DONE, _MARKER)][-1]
    begun = next(e for e in later.events if e.event_type == _MARKER)
    hand_over = (
        begun.event_time.ToDatetime().timestamp() - ended.event_time.ToDatetime().timestamp()
    )
    return start, submit, hand_over, done


async def main(trials: int, reuse_default: bool) -> None:
    if reuse_default:
        at = DEV_SERVER_ARGS.index('history.workflowIdReuseMinimalInterval="0s"')
        runner_module.DEV_SERVER_ARGS = DEV_SERVER_ARGS[: at - 1] + DEV_SERVER_ARGS[at + 1 :]
    for policy in ("queue", "interrupt"):
        agent = Agent(
            name="a", model=MockModel.create([reply] * 10, keep_requests=False), tools=[slow]
        )
        app = App(name="bench", root_agent=agent, busy_policy=policy)
        async with Runner(
            app=app, session_service=InMemorySessionService(), auto_create_session=True
        ) as runner:
            temporal = await runner._ensure_started()
            client = AgentClient(temporal, runner.session_service, task_queue=runner.task_queue)
            rows = [await trial(runner, client, f"s{i}") for i in range(trials)]
        start, submit, hand_over, done = (
            statistics.median(column) * 1000 for column in zip(*rows, strict=True)
        )
        print(
            f"{policy:9} start {start:.0f} ms · submit {submit:.0f} ms · hand-over"
            f" {hand_over:.0f} ms · second done {done:.0f} ms (median of {trials})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--reuse-interval-default", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.trials, args.reuse_interval_default))
