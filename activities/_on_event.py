"""The plugins' on_event_callback before an event is recorded, and before_run's answer
(google-adk 2.13's rules).

Runs on: activity side (worker process).

Every event an invocation's agents produce is recorded here (`record`, or `on_event`
before the model step's own append), as google-adk 2.13's runner processes each event
it yields: first RunConfig.custom_metadata is merged in (under the event's own keys,
adk/events/_internal_metadata.py), then the plugins see it. A plugin may return a
replacement event; the run's metadata is merged into it too, only the fields it set
are taken, onto the original (never its id, invocation or time), and the original's
internal custom metadata survives: what is recorded (and so streamed) is the merged
event. The activity that records an event runs the hook, once per new event: an event
already in the session (a retried append) is not shown to the plugins again.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

from google.genai import types

from adk.agents.invocation_context import InvocationContext
from adk.agents.run_config import RunConfig
from adk.events._internal_metadata import apply_run_metadata, internal_metadata
from adk.events.event import Event
from adk.plugins.plugin_manager import PluginManager
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session

from ._support import user_code

_KEPT = frozenset({"id", "invocation_id", "timestamp"})


async def on_event(
    plugins: PluginManager,
    ctx: Callable[[], InvocationContext],
    event: Event,
    run_config: RunConfig | None,
) -> Event:
    """The event with the run's custom metadata, as the plugins leave it (the same
    object when none changes it). `ctx` makes the hook's invocation context (only when
    a plugin has the hook)."""
    apply_run_metadata(event, run_config)
    if not plugins.overrides("on_event_callback"):
        return event
    with user_code("a plugin's on_event_callback"):
        modified = await plugins.run_on_event_callback(invocation_context=ctx(), event=event)
    if modified is not None:
        apply_run_metadata(modified, run_config)
    return merged(event, modified)


def merged(original: Event, modified: Event | None) -> Event:
    if modified is None:
        return original
    update = {
        name: modified.__dict__[name] for name in modified.model_fields_set if name not in _KEPT
    }
    internal = internal_metadata(original.custom_metadata)
    if "custom_metadata" in update and internal:
        update["custom_metadata"] = {**(update["custom_metadata"] or {}), **internal}
    output = original.model_copy(update=update)
    if not output.author:
        output.author = original.author
    return output


async def record(
    store: BaseSessionService,
    session: Session,
    event: Event,
    plugins: PluginManager,
    ctx: Callable[[], InvocationContext],
    run_config: RunConfig | None,
) -> Event:
    """Append an event the invocation produced, with the run's custom metadata, through
    on_event if it is new here."""
    if plugins.overrides("on_event_callback") and all(e.id != event.id for e in session.events):
        event = await on_event(plugins, ctx, event, run_config)
    else:
        apply_run_metadata(event, run_config)
    return await store.append_event(session, event)


async def before_run(
    store: BaseSessionService,
    session: Session,
    plugins: PluginManager,
    ctx: InvocationContext,
    user_event_id: str,
) -> bool:
    """The plugins' before_run_callback; True when one answered with content: google-adk
    2.13 records that answer as a "model" event (through on_event) and runs no agent.
    Its id derives from the user event's, so a retried step records it once."""
    with user_code("a plugin's before_run_callback"):
        answer = await plugins.run_before_run_callback(invocation_context=ctx)
    if not isinstance(answer, types.Content):
        return False
    early = Event(
        id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{user_event_id}/before_run")),
        timestamp=time.time(),
        invocation_id=ctx.invocation_id,
        author="model",
        content=answer,
    )
    await record(store, session, early, plugins, lambda: ctx, ctx.run_config)
    return True
