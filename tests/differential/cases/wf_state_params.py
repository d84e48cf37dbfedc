"""Function nodes reading their parameters from state (coerced to their hints, a
default when the key is missing), writing state through ctx, a node returning None
(its state write alone makes an event), a pydantic model output (dumped) and a
Content return value (an event with content); two turns in one session."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow
from google.genai import types
from pydantic import BaseModel

TURNS = ["first", "second"]
INITIAL_STATE = {"count": "3", "label": "x"}


class Summary(BaseModel):
    text: str
    count: int
    note: str | None = None


def start(node_input: str, count: int, label: str, missing: str = "default") -> dict:
    return {"seen": node_input, "count": count + 1, "label": label, "missing": missing}


def remember(ctx: Context, node_input: dict) -> None:
    ctx.state["count"] = node_input["count"]
    ctx.state["turns"] = ctx.state.get("turns", 0) + 1


def summarize(count: int, turns: int) -> Summary:
    return Summary(text=f"{count} after {turns}", count=count)


def reply(node_input: dict) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=f"done: {node_input['text']}")])


def build(scripted):
    return Workflow(name="wf", edges=[(START, start, remember, summarize, reply)])
