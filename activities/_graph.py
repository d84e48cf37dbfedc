"""Workflow graph roots (google.adk.workflow): the graph's spec and begin, and the
`adk.run_node` activity that runs one node's code once.

Runs on: activity side (worker process). The workflow schedules the graph
(workflows/_graph.py) over the GraphSpec begin records; node code, user code, runs
here (adk/workflow/_node_running.py); the activity records its events (ids from the
workflow's seed: a retry records the same ones) and returns them to the workflow.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping

from temporalio.exceptions import ApplicationError

from adk._unimplemented import not_implemented
from adk.apps.app import App, is_resumable, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.events._internal_metadata import apply_run_metadata
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.sessions.base_session_service import BaseSessionService
from adk.workflow._base_node import START, BaseNode
from adk.workflow._function_node import FunctionNode
from adk.workflow._node_context import NodeContext
from adk.workflow._node_running import NodeRun, run_node_once
from adk.workflow._retry_config import RetryConfig, exception_class_names
from adk.workflow._workflow import Workflow
from workflows.contracts import (
    AgentSpec,
    BeginInput,
    BeginOutput,
    GraphEdgeSpec,
    GraphNodeSpec,
    GraphSpec,
    NodeRetrySpec,
    NodeRunInput,
    NodeRunOutput,
)
from workflows.errors import RaisedError

from . import _custom_metadata as custom_metadata
from ._model_step import invocation_context, load_session
from ._on_event import record
from ._support import find_app, retried, user_code


def build_graph_spec(workflow: Workflow) -> GraphSpec:
    graph = workflow.graph
    if graph is None:
        return GraphSpec(name=workflow.name)
    return GraphSpec(
        name=workflow.name,
        nodes=[_node_spec(node) for node in graph.nodes if node is not START],
        edges=[
            GraphEdgeSpec(source=e.from_node.name, target=e.to_node.name, route=e.route)
            for e in graph.edges
        ],
        terminal=graph.terminal_node_names,
        max_concurrency=workflow.max_concurrency,
    )


def _node_spec(node: BaseNode) -> GraphNodeSpec:
    nested = isinstance(node, Workflow)
    kind = "workflow" if nested else "function" if isinstance(node, FunctionNode) else "custom"
    return GraphNodeSpec(
        name=node.name,
        kind=kind,
        join=node._requires_all_predecessors,
        wait_for_output=node.wait_for_output,
        retry=_retry_spec(node.retry_config),
        timeout=node.timeout,
        graph=build_graph_spec(node) if isinstance(node, Workflow) else None,
    )


def _retry_spec(config: RetryConfig | None) -> NodeRetrySpec | None:
    if config is None:
        return None
    exceptions = config.exceptions
    return NodeRetrySpec(
        max_attempts=config.max_attempts,
        initial_delay=config.initial_delay,
        max_delay=config.max_delay,
        backoff_factor=config.backoff_factor,
        jitter=config.jitter,
        exceptions=None if exceptions is None else [str(name) for name in exceptions],
    )


async def begin_graph(
    app: App, store: BaseSessionService, input: BeginInput, session: object
) -> BeginOutput:
    """Record the user's message (as google-adk 2.13's node runner does before the
    root runs) and the graph."""
    from adk.sessions.session import Session

    assert isinstance(session, Session) and isinstance(app.root_agent, Workflow)
    invocation = input.invocation
    message = invocation.new_message
    if message is None or any(p.function_response for p in message.parts or []):
        with user_code("resuming a workflow graph"):
            raise not_implemented(
                "Answering a workflow graph's request", "human input in workflow graphs yet"
            )
    assert message is not None
    if message.role != "user":
        message = message.model_copy(update={"role": "user"})
    event = Event(
        id=input.user_event_id,
        timestamp=input.timestamp,
        invocation_id=invocation.invocation_id,
        author="user",
        content=message,
        actions=EventActions(state_delta=dict(invocation.state_delta or {})),
    )
    await store.append_event(session, apply_run_metadata(event, invocation.run_config))
    root = app.root_agent
    return BeginOutput(
        root=AgentSpec(name=root.name, kind="custom"),
        agent_to_run=root.name,
        user_event_recorded=True,
        busy_policy=app.busy_policy,
        resumable=is_resumable(app),
        graph=build_graph_spec(root),
    )


def _event_ids(seed: str, count: int) -> list[str]:
    """The ids of a run's events: decided by the workflow's seed, so a retry records
    the same events again (upserts) instead of new ones."""
    base = uuid.UUID(seed)
    return [str(uuid.uuid5(base, str(index))) for index in range(count)]


def _find_node(app: App, name: str, graph_path: list[str]) -> BaseNode:
    """The node `name` in the root's graph, or in the nested Workflows `graph_path`."""
    node: BaseNode | None = app.root_agent if isinstance(app.root_agent, Workflow) else None
    for step in [*graph_path, name]:
        graph = node.graph if isinstance(node, Workflow) else None
        node = next((n for n in graph.nodes if n.name == step), None) if graph else None
    if node is None:
        raise ApplicationError(
            f"Node {name!r} is not in the graph of app {app.name!r} (the app changed since"
            " this invocation began).",
            type="NodeNotFound",
            non_retryable=True,
        )
    return node


async def run_node(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: NodeRunInput,
    artifacts: BaseArtifactService | None = None,
) -> NodeRunOutput:
    ref = input.ref
    app = find_app(apps, ref.session.app_name)
    node = _find_node(app, input.node_name, input.graph_path)
    session = await load_session(store, ref, records=[])
    if retried():  # an earlier attempt may have recorded this run's events: not seen
        earlier = _event_ids(input.event_seed, len(session.events))
        recorded = [e.id for e in session.events if e.id in earlier]
        if recorded:
            session = await load_session(store, ref, records=recorded)
    ctx_inv = invocation_context(
        store, session, ref, app.root_agent, plugin_manager_of(app), artifacts, None
    )
    metadata_before = custom_metadata.snapshot(ctx_inv)
    ctx = NodeContext(
        ctx_inv,
        node=node,
        node_path=ref.node_path,
        event_author=ref.agent_name,
        attempt_count=input.attempt,
    )
    run = NodeRun(
        author=ref.agent_name,
        invocation_id=ref.invocation_id,
        node_path=ref.node_path,
        branch=ref.branch,
        output_for_ancestors=list(input.output_for),
    )
    node_input = input.content_input if input.content_input is not None else input.node_input
    with user_code(f"running node {input.node_name}"):  # the engine's gaps: NotImplementedError
        await run_node_once(node, ctx, node_input, run, input.timeout)
    plugins = plugin_manager_of(app)
    ids = _event_ids(input.event_seed, len(run.events))
    for event, event_id in zip(run.events, ids, strict=True):
        event.id = event_id
        event.timestamp = time.time()
        await record(store, session, event, plugins, lambda: ctx_inv, ref.run_config)
    return NodeRunOutput(
        events=run.events,
        output=run.output,
        has_output=run.has_output,
        branch=run.branch,
        route=run.route,
        error=RaisedError.of(run.error) if run.error is not None else None,
        error_classes=exception_class_names(run.error) if run.error is not None else None,
        custom_metadata=custom_metadata.written(ctx_inv, metadata_before),
    )
