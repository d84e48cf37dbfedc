"""RetryConfig.exceptions: a raised exception is retried when any class of its MRO is
named (a class or its name); another fails at once. A retry draws its delay with the
default jitter; a timed-out attempt is retried when NodeTimeoutError is named; the
attempts exhausted, the last exception reaches the caller."""

import asyncio

from google.adk.agents import Context
from google.adk.workflow import START, RetryConfig, Workflow, node

TURNS = ["transient", "missing", "fatal", "exhausted", "sleepy"]
CONTINUE_AFTER_RAISE = True


class Transient(ConnectionError):
    pass


class Fatal(ValueError):
    pass


@node(
    retry_config=RetryConfig(
        max_attempts=3, initial_delay=0.01, max_delay=0.05, exceptions=[OSError, "KeyError"]
    )
)
def fetch(ctx: Context, node_input: str) -> str:
    ctx.state[f"{node_input}_attempts"] = ctx.attempt_count
    if node_input == "transient" and ctx.attempt_count < 3:
        raise Transient(f"try {ctx.attempt_count}")
    if node_input == "missing" and ctx.attempt_count < 2:
        raise KeyError(node_input)
    if node_input == "fatal":
        raise Fatal("not retried")
    if node_input == "exhausted":
        raise Transient(f"still down on attempt {ctx.attempt_count}")
    return node_input


@node(
    timeout=0.5,
    retry_config=RetryConfig(
        max_attempts=2, initial_delay=0.01, jitter=0.0, exceptions=["NodeTimeoutError"]
    ),
)
async def nap(ctx: Context, node_input: str) -> str:
    if node_input == "sleepy" and ctx.attempt_count == 1:
        yield f"dozing on attempt {ctx.attempt_count}"
        await asyncio.sleep(5)
    yield f"{node_input} done on attempt {ctx.attempt_count}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, fetch, nap)])
