"""Workflow graph construction parity with google-adk 2.13 (adk/workflow).

Runs on: test process only. Each case declares the same graph (or node) with
google-adk's classes and with ours; the outcome must be equal: the same error class
and text (for a pydantic ValidationError: each error's location, type and message),
or, when construction succeeds, the same compiled graph (nodes, edges, routes,
terminal nodes) and node fields.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

pytest.importorskip("google.adk")

import google.adk.agents as ref_agents  # noqa: E402
import google.adk.sessions.state as ref_state  # noqa: E402
import google.adk.workflow as ref_workflow  # noqa: E402
from google.adk.workflow._graph import Graph as RefGraph  # noqa: E402

import adk.agents as our_agents  # noqa: E402
import adk.sessions.state as our_state  # noqa: E402
import adk.workflow as our_workflow  # noqa: E402
from adk.workflow._graph import Graph as OurGraph  # noqa: E402

REF = SimpleNamespace(w=ref_workflow, agents=ref_agents, Graph=RefGraph, state=ref_state)
OURS = SimpleNamespace(w=our_workflow, agents=our_agents, Graph=OurGraph, state=our_state)


def a() -> int:
    return 1


def b() -> int:
    return 2


def c() -> int:
    return 3


def needs(x: int) -> int:
    return x


class Plan(BaseModel):
    item: str
    qty: int = 1


class Other(BaseModel):
    x: int = 0


def makes_plan(node_input: str) -> Plan:
    """Plans the order."""
    return Plan(item=node_input)


def takes_other(node_input: Other) -> str:
    return str(node_input)


class Schema(BaseModel):
    x: int = 0


class OtherSchema(BaseModel):
    y: int = 0
    z: int = 0


def _cycle(message: str) -> str:
    """A cycle's message with the cycle rotated to start at its smallest name: 2.13
    walks a set of names, so which rotation it reports depends on the hash seed."""
    found = re.search(r"cycle detected: ([^.]*)\.", message)
    if not found:
        return message
    names = found.group(1).split(" -> ")[:-1]
    start = names.index(min(names))
    rotated = names[start:] + names[:start] + [names[start]]
    return message.replace(found.group(1), " -> ".join(rotated))


def _graph(workflow: Any) -> Any:
    graph = workflow.graph
    if graph is None:
        return None
    terminal = getattr(graph, "terminal_node_names", None)
    if terminal is None:  # 2.13 keeps a set
        terminal = graph._terminal_node_names
    return {
        "nodes": [(type(n).__name__, n.name) for n in graph.nodes],
        "edges": [(e.from_node.name, e.to_node.name, e.route) for e in graph.edges],
        "terminal": sorted(terminal),
    }


def outcome(build: Any, side: SimpleNamespace) -> Any:
    try:
        built = build(side)
    except ValidationError as error:
        return (
            "ValidationError",
            error.title,
            [(e["loc"], e["type"], _cycle(e["msg"])) for e in error.errors()],
        )
    except Exception as error:
        return (type(error).__name__, _cycle(str(error)))
    if isinstance(built, (ref_workflow.Workflow, our_workflow.Workflow)):
        return ("OK", type(built).__name__, _graph(built), _fields(built))
    if isinstance(built, BaseModel):
        return ("OK", type(built).__name__, _fields(built))
    return ("OK", type(built).__name__)


def _fields(node: BaseModel) -> dict[str, Any]:
    shown = {}
    for name in type(node).model_fields:
        if name in ("edges", "graph", "parent_agent", "sub_agents"):
            continue
        value = getattr(node, name)
        if isinstance(value, type):
            value = value.__name__
        elif isinstance(value, BaseModel):
            value = value.model_dump()
        elif callable(value):
            value = "<callable>"
        shown[name] = value
    return shown


def _llm(side: SimpleNamespace, **kwargs: Any) -> Any:
    return side.agents.LlmAgent(model="gemini-2.5-flash", **kwargs)


NA: dict[str, Any] = {}


def _na(side: SimpleNamespace) -> Any:
    """One node object per side, used twice in a case (identity matters)."""
    key = side.w.__name__
    if key not in NA:
        NA[key] = side.w.node(a)
    return NA[key]


CASES: dict[str, Any] = {
    # construction_errors.py (docs/design/workflow-graph-cases)
    "dup": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, a), (s.w.START, s.w.FunctionNode(func=b, name="a"))]
    ),
    "cycle": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a, b, a)]),
    "self_cycle": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a), (a, a)]),
    "unreach": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a), (b, c)]),
    "startroute": lambda s: s.w.Workflow(
        name="w", edges=[s.w.Edge(from_node=s.w.START, to_node=s.w.node(a), route="x")]
    ),
    "default_list": lambda s: s.w.Workflow(
        name="w",
        edges=[
            (s.w.START, _na(s)),
            s.w.Edge(from_node=_na(s), to_node=s.w.node(b), route=[s.w.DEFAULT_ROUTE, "x"]),
        ],
    ),
    "dupedge": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a, b), (a, b)]),
    "dupedge_routes": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, a, {"x": b, "y": c}), (a, {"x": b})]
    ),
    "badname": lambda s: s.w.Workflow(name="my wf", edges=[(s.w.START, a)]),
    "chat": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, a, _llm(s, name="x", mode="chat"))]
    ),
    "emptymap": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a, {})]),
    "badkey": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a, {1.5: b})]),
    "badedge_list": lambda s: s.w.Workflow(name="w", edges=[[s.w.START, a]]),
    "mpw": lambda s: s.w.node(a, max_parallel_workers=2),
    "mpw_zero": lambda s: s.w.node(a, parallel_worker=True, max_parallel_workers=0),
    "node_mpw": lambda s: s.w.Node(name="n", max_parallel_workers=2),
    "confirm_rerun": lambda s: s.w.FunctionNode(func=a, require_confirmation=True),
    "auth_rerun": lambda s: s.w.FunctionNode(func=a, auth_config="credentials"),
    "not_callable": lambda s: s.w.FunctionNode(func=3),
    "confirm_not_function": lambda s: s.w.node(s.w.JoinNode(name="j"), require_confirmation=True),
    "confirm_rerun_override": lambda s: s.w.node(
        s.w.FunctionNode(func=a), rerun_on_resume=False, require_confirmation=True
    ),
    "nodes": lambda s: s.Graph(nodes=[s.w.node(a)]),
    "invalid_node_type": lambda s: s.w.node(3),
    "consecutive_maps": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, a, {"x": b}, {"y": c})]
    ),
    "start_incoming": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a), (a, s.w.START)]),
    "no_start": lambda s: s.w.Workflow(name="w", edges=[(a, b)]),
    "bad_node_name": lambda s: s.w.FunctionNode(func=a, name="not ok"),
    "bad_retry_exceptions": lambda s: s.w.RetryConfig(exceptions=[3]),
    "retry_exceptions": lambda s: s.w.RetryConfig(exceptions=[ValueError, "KeyError"]),
    "schema_mismatch": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, makes_plan, takes_other)]
    ),
    "state_schema": lambda s: s.w.Workflow(
        name="w", state_schema=OtherSchema, edges=[(s.w.START, a, needs)]
    ),
    "state_schema_ok": lambda s: s.w.Workflow(
        name="w", state_schema=Schema, edges=[(s.w.START, a, needs)]
    ),
    "extra_edge_field": lambda s: s.w.Edge(from_node=s.w.START, to_node=s.w.node(a), when="x"),
    # constructions that succeed: the compiled graph and the fields are 2.13's
    "linear": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, a, b, c)]),
    "routes_loop_join": lambda s: s.w.Workflow(
        name="wf",
        edges=[
            (s.w.START, a),
            (a, {"short": b, "long": (c, needs)}),
            (b, a),
            ((c, needs), s.w.JoinNode(name="join")),
        ],
    ),
    "fan_out_in": lambda s: s.w.Workflow(name="w", edges=[("START", (a, b), c)]),
    "route_list_default": lambda s: s.w.Workflow(
        name="w",
        edges=[
            (s.w.START, _na(s)),
            s.w.Edge(from_node=_na(s), to_node=s.w.node(b), route=["x", 1, True]),
            s.w.Edge(from_node=_na(s), to_node=s.w.node(c), route=s.w.DEFAULT_ROUTE),
        ],
    ),
    "empty": lambda s: s.w.Workflow(name="w"),
    "options": lambda s: s.w.Workflow(
        name="w",
        description="d",
        max_concurrency=2,
        timeout=3.0,
        retry_config=s.w.RetryConfig(max_attempts=2),
        edges=[(s.w.START, s.w.node(a, name="first", timeout=1.5, rerun_on_resume=True))],
    ),
    "schemas_inferred": lambda s: s.w.FunctionNode(func=makes_plan),
    "input_schema_inferred": lambda s: s.w.FunctionNode(func=takes_other),
    "decorated": lambda s: s.w.node(name="renamed")(a),
    "join": lambda s: s.w.JoinNode(name="j"),
    "node_subclass": lambda s: s.w.Node(name="n"),
    "llm_node": lambda s: s.w.Workflow(name="w", edges=[(s.w.START, _llm(s, name="writer"))]),
    "llm_node_include_contents": lambda s: s.w.Workflow(
        name="w", edges=[(s.w.START, _llm(s, name="writer", include_contents="default"), a)]
    ),
    "nested": lambda s: s.w.Workflow(
        name="outer",
        edges=[(s.w.START, s.w.Workflow(name="inner", edges=[(s.w.START, a)]), b)],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_construction_is_google_adks(case: str) -> None:
    NA.clear()
    assert outcome(CASES[case], OURS) == outcome(CASES[case], REF)


def test_llm_agent_node_fields_are_google_adks() -> None:
    def node_fields(side: SimpleNamespace) -> dict[str, Any]:
        graph = side.w.Workflow(name="w", edges=[(side.w.START, _llm(side, name="writer"))]).graph
        writer = graph.nodes[1]
        return {
            "mode": str(writer.mode),
            "rerun_on_resume": writer.rerun_on_resume,
            "wait_for_output": writer.wait_for_output,
            "include_contents": writer.include_contents,
            "is_node": isinstance(writer, side.w.BaseNode),
        }

    assert node_fields(OURS) == node_fields(REF)


def test_the_surface_is_google_adks() -> None:
    assert sorted(our_workflow.__all__) == sorted(ref_workflow.__all__)
    assert our_workflow.DEFAULT_ROUTE == ref_workflow.DEFAULT_ROUTE
    assert our_workflow.START.name == ref_workflow.START.name
    for name in ("BaseNode", "FunctionNode", "JoinNode", "Node", "Workflow", "RetryConfig"):
        ours, ref = getattr(our_workflow, name), getattr(ref_workflow, name)
        assert {k: repr(f.default) for k, f in ours.model_fields.items()} == {
            k: repr(f.default) for k, f in ref.model_fields.items()
        }, name
    ours_error = our_workflow.NodeTimeoutError(node_name="slow", timeout=2.5)
    ref_error = ref_workflow.NodeTimeoutError(node_name="slow", timeout=2.5)
    assert (str(ours_error), ours_error.node_name, ours_error.timeout) == (
        str(ref_error),
        ref_error.node_name,
        ref_error.timeout,
    )
    base_agent_fields = list(ref_agents.BaseAgent.model_fields)
    assert list(our_agents.BaseAgent.model_fields) == base_agent_fields


def test_request_input_and_ui_widget_are_google_adks() -> None:
    from google.adk.events import RequestInput as RefRequestInput
    from google.adk.events.ui_widget import UiWidget as RefUiWidget

    from adk.events import RequestInput
    from adk.events.ui_widget import UiWidget

    given = {"interruptId": "ask1", "message": "ok?", "payload": {"n": 1}}
    assert RequestInput(**given).model_dump(by_alias=True) == RefRequestInput(**given).model_dump(
        by_alias=True
    )
    assert RequestInput().interrupt_id != RequestInput().interrupt_id
    widget = {"id": "w1", "provider": "mcp", "payload": {"resourceUri": "ui://x"}}
    assert UiWidget(**widget).model_dump(by_alias=True) == RefUiWidget(**widget).model_dump(
        by_alias=True
    )
    with pytest.raises(ValidationError):
        UiWidget(id="w", provider="mcp", extra=1)


def test_an_app_accepts_a_workflow_root_and_what_cannot_run_raises_naming_it(
    tmp_path: Any,
) -> None:
    """App(root_agent=Workflow) builds as in 2.13; function nodes on unrouted edges run
    (tests/differential/cases/wf_*.py); a graph using what is not implemented yet is
    refused by the Runner and the worker, naming it (nothing silently ignored)."""
    import asyncio

    from adk.apps import App
    from adk.runners import Runner
    from worker import publish_apps
    from worker._loader import load_app

    chain = our_workflow.Workflow(name="wf", edges=[(our_workflow.START, a, b)])
    assert App(name="app", root_agent=chain).root_agent is chain
    publish_apps("graph-test-queue", {"app": App(name="app", root_agent=chain)})  # a worker's
    timed = our_workflow.Workflow(name="wf", edges=[(our_workflow.START, a, b)], timeout=1.0)
    app = App(name="app", root_agent=timed)
    for build in (lambda: Runner(app=app), lambda: Runner(node=timed)):
        with pytest.raises(NotImplementedError, match=r"Running a Workflow root \('wf'\) with"):
            build()
    folder = tmp_path / "graph_app"
    folder.mkdir()
    (folder / "agent.py").write_text(
        "from adk.workflow import START, Workflow\n\n\ndef step(node_input):\n"
        "    return node_input\n\n\n"
        "root_agent = Workflow(name='wf', edges=[(START, step)])\n"
    )
    assert load_app(str(folder)).root_agent.name == "wf"
    (folder / "agent.py").write_text(
        "from adk.workflow import START, Workflow, node\n\n\ndef step(node_input):\n"
        "    return node_input\n\n\n"
        "root_agent = Workflow(name='wf', edges=[(START, node(step))], timeout=1.0)\n"
    )
    import sys

    sys.modules.pop("graph_app.agent", None)
    sys.modules.pop("graph_app", None)
    with pytest.raises(NotImplementedError, match="Workflow 'wf' retry_config/timeout"):
        load_app(str(folder))
    with pytest.raises(NotImplementedError, match=r"FunctionNode\.run"):
        asyncio.run(anext(our_workflow.node(a).run(ctx=None, node_input=None)))


def _gap_cases() -> dict[str, tuple[Any, str]]:
    from adk.apps import App, EventsCompactionConfig
    from adk.plugins import BasePlugin

    w, START = our_workflow, our_workflow.START

    def wf(*edges: Any, **kwargs: Any) -> Any:
        return w.Workflow(name="wf", edges=list(edges), **kwargs)

    class Custom(w.BaseNode):
        pass

    return {
        "agent": (wf((START, our_agents.LlmAgent(name="x"))), "agent node 'x'"),
        "nested_retry": (
            wf((START, w.Workflow(name="inner", edges=[(START, a)], timeout=1.0))),
            "Workflow 'inner' retry_config/timeout",
        ),
        "no_run_impl": (wf((START, Custom(name="k"))), "Custom nodes"),
        "state_schema": (wf((START, a), state_schema=Schema), "state_schema"),
        "wf_retry": (wf((START, a), retry_config=w.RetryConfig()), "retry_config/timeout"),
        "plugins": (
            App(name="app", root_agent=wf((START, a)), plugins=[BasePlugin(name="p")]),
            "plugins",
        ),
        "compaction": (
            App(
                name="app",
                root_agent=wf((START, a)),
                events_compaction_config=EventsCompactionConfig(
                    compaction_interval=2, overlap_size=0
                ),
            ),
            "compaction",
        ),
    }


@pytest.mark.parametrize("case", sorted(_gap_cases()))
def test_what_a_graph_cannot_run_yet_is_refused_naming_it(case: str) -> None:
    from adk.apps import App
    from adk.apps.app import refuse_graph_root

    built, named = _gap_cases()[case]
    app = built if isinstance(built, App) else App(name="app", root_agent=built)
    with pytest.raises(NotImplementedError, match="not supported yet") as raised:
        refuse_graph_root(app.root_agent, app)
    assert named in str(raised.value)


def test_function_and_custom_nodes_on_unrouted_edges_run() -> None:
    from adk.apps import App
    from adk.apps.app import refuse_graph_root

    class Echo(our_workflow.BaseNode):
        async def _run_impl(self, *, ctx: Any, node_input: Any) -> Any:
            yield node_input

    for graph in (
        our_workflow.Workflow(name="wf"),
        our_workflow.Workflow(name="wf", edges=[(our_workflow.START, a, Echo(name="e"), b)]),
        our_workflow.Workflow(name="wf", edges=[(our_workflow.START, (a, b), c)]),
        our_workflow.Workflow(
            name="wf",
            edges=[
                (
                    our_workflow.START,
                    our_workflow.node(a, retry_config=our_workflow.RetryConfig()),
                    our_workflow.node(b, timeout=1.0),
                )
            ],
        ),
    ):
        refuse_graph_root(graph, App(name="app", root_agent=graph))


_RETRY_CONFIGS = [
    {},
    {"max_attempts": 1},
    {"max_attempts": 0},
    {"max_attempts": 4, "initial_delay": 0.5, "backoff_factor": 3.0, "jitter": 0.0},
    {"initial_delay": 10.0, "max_delay": 12.0, "jitter": 0.5},
    {"initial_delay": 0.01, "max_delay": 0.05, "exceptions": [OSError, "KeyError"]},
    {"exceptions": ["object"]},
    {"exceptions": ["NodeTimeoutError"], "jitter": 2.0},
]


@pytest.mark.parametrize("fields", _RETRY_CONFIGS)
def test_retry_decisions_and_delays_are_2_13s(fields: dict[str, Any]) -> None:
    """The workflow's retry rules (adk/workflow/_retry_config: should_retry, retry_delay)
    decide as 2.13's `_should_retry_node` / `_get_retry_delay` do, for each attempt and
    exception, and draw the same delay from the same random numbers."""
    import random

    from google.adk.platform import _random as ref_random
    from google.adk.workflow._node_state import NodeState
    from google.adk.workflow.utils import _retry_utils as ref_rules

    from adk.workflow import _retry_config as ours

    ref_config = ref_workflow.RetryConfig(**fields)
    our_config = our_workflow.RetryConfig(**fields)
    errors: list[BaseException] = [
        ConnectionResetError("x"),
        KeyError("k"),
        ValueError("v"),
        our_workflow.NodeTimeoutError(node_name="n", timeout=1.0),
    ]
    for attempt in range(1, 7):
        for error in errors:
            names = ours.exception_class_names(error)
            assert ours.should_retry(our_config, attempt, names) == ref_rules._should_retry_node(
                error, ref_config, NodeState(attempt_count=attempt)
            ), (attempt, error)
        ref_random.set_random_provider(lambda seed=attempt: random.Random(seed))
        try:
            expected = ref_rules._get_retry_delay(ref_config, NodeState(attempt_count=attempt))
        finally:
            ref_random.reset_random_provider()
        drawn = ours.retry_delay(our_config, attempt, random.Random(attempt).uniform)
        assert drawn == expected, attempt
    assert ours.should_retry(None, 1, ["ValueError"]) is False
    assert ours.retry_delay(None, 1, random.Random(0).uniform) == 1.0
