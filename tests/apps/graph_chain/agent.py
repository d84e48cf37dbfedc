"""A google.adk.workflow graph root (a chain of function nodes): the app whose
history tests/histories/graph_chain.json records (tests/histories/record_graph.py)."""

from adk.agents import Context
from adk.workflow import START, Workflow


def parse(node_input: str) -> dict:
    words = node_input.split()
    return {"words": words, "count": len(words)}


def remember(ctx: Context, node_input: dict) -> int:
    ctx.state["words"] = node_input["count"]
    return node_input["count"]


def letters(node_input: int, words: int):
    for _ in range(node_input):
        yield None
    yield f"{words} word(s)"


root_agent = Workflow(name="chain", edges=[(START, parse, remember, letters)])
