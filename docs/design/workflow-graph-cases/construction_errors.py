"""Construction and run-time errors of google-adk 2.13 workflows (plain script, reference only)."""

import asyncio
import logging
import warnings

from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.adk.workflow import DEFAULT_ROUTE, START, Edge, FunctionNode, Workflow, node
from google.genai import types

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)  # 2.13 logs each failing node with its traceback


def a():
    return 1


def b():
    return 2


def c():
    return 3


def t(label, f):
    try:
        r = f()
        print(label, "OK", type(r).__name__)
    except BaseException as e:
        print(label, type(e).__name__, "|", str(e).replace("\n", " / ")[:400])


t("dup", lambda: Workflow(name="w", edges=[(START, a), (START, FunctionNode(func=b, name="a"))]))
t("cycle", lambda: Workflow(name="w", edges=[(START, a, b, a)]))
t("unreach", lambda: Workflow(name="w", edges=[(START, a), (b, c)]))
t(
    "startroute",
    lambda: Workflow(name="w", edges=[Edge(from_node=START, to_node=node(a), route="x")]),
)
NA = node(a)
t(
    "default_list",
    lambda: Workflow(
        name="w",
        edges=[(START, NA), Edge(from_node=NA, to_node=node(b), route=[DEFAULT_ROUTE, "x"])],
    ),
)
t("dupedge", lambda: Workflow(name="w", edges=[(START, a, b), (a, b)]))
t("badname", lambda: Workflow(name="my wf", edges=[(START, a)]))
t(
    "chat",
    lambda: Workflow(
        name="w", edges=[(START, a, LlmAgent(name="x", mode="chat", model="gemini-2.5-flash"))]
    ),
)
t("emptymap", lambda: Workflow(name="w", edges=[(START, a, {})]))
t("badkey", lambda: Workflow(name="w", edges=[(START, a, {1.5: b})]))
t("badedge", lambda: Workflow(name="w", edges=[[START, a]]))
t("mpw", lambda: node(a, max_parallel_workers=2))
t("confirm_rerun", lambda: FunctionNode(func=a, require_confirmation=True))
t(
    "nodes",
    lambda: __import__("google.adk.workflow._graph", fromlist=["Graph"]).Graph(nodes=[node(a)]),
)


async def run(wf, msg="hi"):
    r = InMemoryRunner(node=wf, app_name="app")
    s = await r.session_service.create_session(app_name="app", user_id="u")
    out = []
    async for e in r.run_async(
        user_id="u",
        session_id=s.id,
        new_message=types.Content(role="user", parts=[types.Part(text=msg)]),
    ):
        out.append(e)
    return out


t("multi_terminal", lambda: asyncio.run(run(Workflow(name="w", edges=[(START, (a, b))]))))


async def dyn(ctx):
    return await ctx.run_node(a)


t(
    "run_node_no_rerun",
    lambda: asyncio.run(run(Workflow(name="w", edges=[(START, FunctionNode(func=dyn))]))),
)


async def dyn2(ctx):
    return await ctx.run_node(a, run_id="7")


t(
    "numeric_run_id",
    lambda: asyncio.run(
        run(Workflow(name="w", edges=[(START, FunctionNode(func=dyn2, rerun_on_resume=True))]))
    ),
)


def needs(x):
    return x


t("missing_param", lambda: asyncio.run(run(Workflow(name="w", edges=[(START, needs)]))))
t(
    "runner_llm_single",
    lambda: asyncio.run(run(LlmAgent(name="x", mode="single_turn", model="gemini-2.5-flash"))),
)
t("empty_wf", lambda: asyncio.run(run(Workflow(name="w"))))
