"""Custom nodes in a chain: a BaseNode subclass (its `_run_impl` yields a raw value and
an Event) and a Node subclass (`run_node_impl`, writing state through ctx), between
function nodes; their fields reach their code."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, BaseNode, Node, Workflow
from google.genai import types

TURNS = ["hello"]


class Prefix(BaseNode):
    prefix: str

    async def _run_impl(self, *, ctx: Context, node_input):
        yield Event(content=types.Content(role="model", parts=[types.Part(text="prefixing")]))
        yield f"{self.prefix}{node_input.parts[0].text}"


class Count(Node):
    async def run_node_impl(self, *, ctx: Context, node_input):
        ctx.state["length"] = len(node_input)
        yield {"text": node_input, "length": len(node_input)}


def finish(node_input: dict) -> str:
    return f"{node_input['text']} ({node_input['length']})"


def build(scripted):
    return Workflow(
        name="pipeline",
        edges=[(START, Prefix(name="prefix", prefix=">> "), Count(name="count"), finish)],
    )
