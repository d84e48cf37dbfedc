"""A node's retry_config and timeout: `flaky` fails twice (two error events, each with
the state its attempt wrote; `ctx.attempt_count` counts) then gives its output; `slow`
runs past its timeout: its NodeTimeoutError error event, and the run raises
NodeTimeoutError to the caller."""

import asyncio

from google.adk.agents import Context
from google.adk.workflow import START, RetryConfig, Workflow, node

TURNS = ["go"]
CONTINUE_AFTER_RAISE = True


@node(retry_config=RetryConfig(max_attempts=3, initial_delay=0.01, jitter=0.0))
def flaky(ctx: Context, node_input):
    n = ctx.state.get("tries", 0) + 1
    ctx.state["tries"] = n
    if ctx.attempt_count < 3:
        raise ValueError(f"boom {ctx.attempt_count}")
    return f"ok after {ctx.attempt_count}"


@node(timeout=0.05)
async def slow(node_input):
    await asyncio.sleep(1)
    return "never"


def build(scripted):
    return Workflow(name="wf", edges=[(START, flaky, slow)])
