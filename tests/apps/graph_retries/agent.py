"""A google.adk.workflow graph root using slice S5 in a resumable app: a node retried
under its retry_config (the default jitter: the workflow's random), a node whose first
attempt runs past its timeout and is retried, a nested Workflow on a fan-out lane; the
app whose history tests/histories/graph_retries.json records
(tests/histories/record_graph.py retries)."""

import asyncio

from adk.agents import Context
from adk.apps import App, ResumabilityConfig
from adk.workflow import START, JoinNode, RetryConfig, Workflow, node


@node(retry_config=RetryConfig(max_attempts=3, initial_delay=0.01, exceptions=[OSError]))
def fetch(ctx: Context, node_input: str) -> str:
    ctx.state["fetch_attempts"] = ctx.attempt_count
    if ctx.attempt_count < 3:
        raise ConnectionError(f"try {ctx.attempt_count}")
    return node_input


@node(timeout=0.2, retry_config=RetryConfig(max_attempts=2, initial_delay=0.01, jitter=0))
async def nap(ctx: Context, node_input: str) -> str:
    if ctx.attempt_count == 1:
        await asyncio.sleep(2)
    return f"{node_input} napped"


def upper(node_input: str) -> str:
    return node_input.upper()


def combine(node_input: dict) -> str:
    return f"{node_input['nap']}|{node_input['inner']}"


inner = Workflow(name="inner", edges=[(START, upper)])

root_agent = Workflow(
    name="retries",
    edges=[(START, fetch, (nap, inner), JoinNode(name="join"), combine)],
)

app = App(
    name="graph_retries",
    root_agent=root_agent,
    resumability_config=ResumabilityConfig(is_resumable=True),
)
