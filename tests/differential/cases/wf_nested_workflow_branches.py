"""Nested Workflows and branches: one reached by a fan-out runs on its own branch
(`inner@1`), and a fan-out inside it nests theirs (`inner@1.x@1`); a join inside gets
its predecessors' common prefix; a retried node inside is retried as anywhere; the
outer join gets the nested Workflow's output under its name."""

from google.adk.agents import Context
from google.adk.workflow import START, JoinNode, RetryConfig, Workflow, node

TURNS = ["go"]
BRANCHES_INTERLEAVE = True


def x(node_input: str) -> str:
    return f"x({node_input})"


@node(retry_config=RetryConfig(max_attempts=2, initial_delay=0.01, jitter=0.0))
def y(ctx: Context, node_input: str) -> str:
    if ctx.attempt_count == 1:
        raise RuntimeError("y once")
    return f"y({node_input})"


def pick(node_input: dict) -> str:
    return f"{node_input['x']}+{node_input['y']}"


def side(node_input: str) -> str:
    return f"side({node_input})"


def final(node_input: dict) -> str:
    return f"{node_input['inner']} & {node_input['side']}"


def build(scripted):
    inner = Workflow(name="inner", edges=[(START, (x, y), JoinNode(name="meet"), pick)])
    return Workflow(name="wf", edges=[(START, (inner, side), JoinNode(name="both"), final)])
