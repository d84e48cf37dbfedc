"""A google.adk.workflow graph root (function nodes, a fan-out into two lanes): the app
whose history tests/histories/graph_chain.json records (tests/histories/record_graph.py)."""

from adk.agents import Context
from adk.workflow import START, Workflow


def parse(node_input: str) -> dict:
    words = node_input.split()
    return {"words": words, "count": len(words)}


def remember(ctx: Context, node_input: dict) -> int:
    ctx.state["words"] = node_input["count"]
    return node_input["count"]


def shout(ctx: Context, node_input: dict) -> None:
    ctx.state["shout"] = " ".join(node_input["words"]).upper()


def letters(node_input: int, words: int):
    for _ in range(node_input):
        yield None
    yield f"{words} word(s)"


root_agent = Workflow(name="chain", edges=[(START, parse, (remember, shout)), (remember, letters)])
