"""Code-execution activity: run the code block a model step found, record the result event.

Runs on: activity side (worker process). One activity per execution, so a worker
lost mid-execution costs that execution only (it runs again on another worker),
and a finished one is in history: a replay never runs it again. The input is a
reference: the code is read from the model step's event in the session store.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping

from temporalio.exceptions import ApplicationError

from adk.apps.app import App, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.code_executors.code_executor_context import INVOCATION_KEYS
from adk.events.event import Event
from adk.flows.llm_flows import code_execution
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from workflows.contracts import CodeExecutionInput, CodeExecutionOutput, StepRef

from . import _custom_metadata as custom_metadata
from ._model_step import invocation_context, load_session
from ._on_event import record
from ._support import check_payload_size, find_app, find_llm_agent, retried, user_code


async def execute_code(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: CodeExecutionInput,
    artifacts: BaseArtifactService | None = None,
) -> CodeExecutionOutput:
    ref = input.ref
    app = find_app(apps, ref.session.app_name)
    agent = find_llm_agent(app, ref.agent_name)
    plugins = plugin_manager_of(app)
    session = await load_session(store, ref, records=[input.event_id])
    code = _code_of(session, input.code_event_id, agent.name)
    ctx = invocation_context(
        store, session, ref, agent, plugins, artifacts, app.resumability_config
    )
    before = {key: copy.deepcopy(session.state.get(key)) for key in INVOCATION_KEYS}
    metadata_before = custom_metadata.snapshot(ctx)
    with user_code(f"the code executor of agent {agent.name}"):
        content, actions = await code_execution.execute(ctx, agent, code)
    event = Event(
        id=input.event_id,
        timestamp=await _earlier_timestamp(store, ref, input.event_id) or time.time(),
        invocation_id=ref.invocation_id,
        author=agent.name,
        branch=ref.branch,
        content=content,
        actions=actions,
        node_info={"path": ref.node_path},
    )
    with user_code(f"saving the output of agent {agent.name}"):  # as every event of its run
        agent._maybe_save_output_to_state(event)
    agent._maybe_accumulate_output(event, session.events)
    written = {
        key: session.state[key]
        for key in INVOCATION_KEYS
        if key in session.state and session.state[key] != before[key]
    }
    output = CodeExecutionOutput(
        event=event,
        code_state=written,
        custom_metadata=custom_metadata.written(ctx, metadata_before),
    )
    check_payload_size(output, f"The code executor of agent {agent.name}")
    output.event = await record(store, session, event, plugins, lambda: ctx, ctx.run_config)
    return output


def _code_of(session: Session, event_id: str, agent_name: str) -> str:
    """The code the model step's event shows (its last part)."""
    event = next((e for e in session.events if e.id == event_id), None)
    parts = (event.content.parts if event and event.content else None) or []
    code = parts[-1].executable_code.code if parts and parts[-1].executable_code else None
    if code is None:
        raise ApplicationError(
            f"The code agent {agent_name} wrote is not in session {session.id} (event"
            f" {event_id}): was the session changed while the invocation ran?",
            type="CodeNotFound",
            non_retryable=True,
        )
    return code


async def _earlier_timestamp(
    store: BaseSessionService, ref: StepRef, event_id: str
) -> float | None:
    """A retry keeps the time its first attempt recorded (a stream may have shown it)."""
    if not retried():
        return None
    recorded = await store.list_events(
        app_name=ref.session.app_name,
        user_id=ref.session.user_id,
        session_id=ref.session.session_id,
        invocation_id=ref.invocation_id,
    )
    return next((e.timestamp for _, e in recorded if e.id == event_id), None)
