"""Retries in a resumable app, on a fan-out lane: the retried node stays running for the
scheduler (one start checkpoint, one completion checkpoint around its attempts), its
error event sits on its own branch, the other lane goes on; the join waits for the
retried lane's output; end-of-agent after the clean finish."""

from google.adk.agents import Context
from google.adk.workflow import START, JoinNode, RetryConfig, Workflow, node

TURNS = ["go"]
RESUMABLE = True
BRANCHES_INTERLEAVE = True


@node(retry_config=RetryConfig(max_attempts=2, initial_delay=0.01, jitter=0.0))
def flaky(ctx: Context, node_input: str) -> str:
    if ctx.attempt_count == 1:
        ctx.state["flaky_failed"] = True
        raise RuntimeError("first attempt fails")
    return f"flaky {node_input} on attempt {ctx.attempt_count}"


def steady(node_input: str) -> str:
    return f"steady {node_input}"


def done(node_input: dict) -> str:
    return f"{node_input['flaky']} / {node_input['steady']}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, (flaky, steady), JoinNode(name="join"), done)])
