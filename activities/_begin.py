"""Begin activity: load or create the session, record the user message, pick the agent.

Runs on: activity side (worker process).
"""

from __future__ import annotations

from collections.abc import Mapping

from temporalio.exceptions import ApplicationError

from adk.apps.app import App, plugin_manager_of
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.flows.agent_routing import find_agent_to_run
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from workflows.contracts import BeginInput, BeginOutput, SessionRef

from ._spec import build_spec
from ._support import find_app


async def load_or_create_session(store: BaseSessionService, ref: SessionRef) -> Session:
    session = await store.get_session(
        app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id
    )
    if session is None:
        session = await store.create_session(
            app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id
        )
    return session


def check_message(input: BeginInput) -> None:
    message = input.invocation.new_message
    if message is None:
        return
    parts = message.parts or []
    if not any(p.text or p.inline_data or p.file_data or p.function_response for p in parts):
        raise ApplicationError(
            "The new message is empty: send some text (or a function response).",
            type="EmptyMessage",
            non_retryable=True,
        )
    if any(p.function_call for p in parts):
        raise ApplicationError(
            "User message cannot contain function calls.", type="InvalidMessage", non_retryable=True
        )


async def begin_invocation(
    apps: Mapping[str, App], store: BaseSessionService, input: BeginInput
) -> BeginOutput:
    invocation = input.invocation
    app = find_app(apps, invocation.session.app_name)
    check_message(input)
    session = await load_or_create_session(store, invocation.session)
    recorded = False
    if invocation.new_message is not None:
        message = invocation.new_message
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
        await store.append_event(session, event)
        recorded = True
    agent = find_agent_to_run(session, app.root_agent)
    return BeginOutput(
        root=build_spec(app.root_agent, plugin_manager_of(app)),
        agent_to_run=agent.name,
        user_event_recorded=recorded,
    )
