"""Rewinding a session to before one of its invocations (google-adk 2.13's rewind).

Runs on: process side (Runner.rewind_async), with the session and artifact services.

A rewind deletes nothing. It appends one event, authored by the user, whose
`actions.rewind_before_invocation_id` names the invocation; the events from that
invocation's first one to the rewind event are then skipped wherever the live
history is read (contents, agent routing, compaction: `apply_rewinds`). The same
event carries what undoes the skipped invocations' effects:

- a state delta setting every session-scoped key back to its value at that point
  (None for a key written only later); `app:`, `user:` and `temp:` keys are left;
- an artifact delta naming, for every session artifact changed since, a new
  version: a copy of the version it had then, or a tombstone (an empty
  `application/octet-stream` part every artifact service loads as absent) for
  an artifact created later. `user:` artifacts are left.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..errors._invocation_not_found_error import InvocationNotFoundError
from ..events.event import Event
from ..events.event_actions import EventActions
from ..platform import uuid as platform_uuid
from .state import State

if TYPE_CHECKING:
    from google.genai import types

    from ..artifacts.base_artifact_service import BaseArtifactService
    from .base_session_service import BaseSessionService
    from .session import Session

logger = logging.getLogger(__name__)

_NON_SESSION_STATE_PREFIXES = (State.APP_PREFIX, State.USER_PREFIX, State.TEMP_PREFIX)

DeltaOf = Callable[["Session", int], Awaitable[dict[str, Any]]]


async def compute_state_delta_for_rewind(
    session: Session, rewind_event_index: int
) -> dict[str, Any]:
    """The state delta that sets session-scoped state back to before event `rewind_event_index`."""
    then: dict[str, Any] = {}
    for event in session.events[:rewind_event_index]:
        for key, value in (event.actions.state_delta or {}).items():
            if key.startswith(_NON_SESSION_STATE_PREFIXES):
                continue
            if value is None:
                then.pop(key, None)
            else:
                then[key] = value
    now = session.state
    delta = {key: value for key, value in then.items() if key not in now or now[key] != value}
    for key in now:  # written after that point (or cleared, as a rewind clears): None
        if not key.startswith(_NON_SESSION_STATE_PREFIXES) and key not in then:
            delta[key] = None
    return delta


async def compute_artifact_delta_for_rewind(
    session: Session,
    rewind_event_index: int,
    *,
    artifact_service: BaseArtifactService | None = None,
    app_name: str | None = None,
) -> dict[str, int]:
    """Save, for each session artifact changed since event `rewind_event_index`, the
    version it had then (a tombstone if it had none); the new versions by filename."""
    if not artifact_service:
        return {}
    from ..artifacts import artifact_util  # (importing sessions does not load artifacts)

    then: dict[str, int] = {}
    for event in session.events[:rewind_event_index]:
        then.update(event.actions.artifact_delta or {})
    now: dict[str, int] = {}
    for event in session.events:
        now.update(event.actions.artifact_delta or {})
    delta: dict[str, int] = {}
    for filename, version in now.items():
        if filename.startswith("user:"):
            continue  # user artifacts outlive the session's history: not restored
        old = then.get(filename)
        if old == version:
            continue
        artifact: types.Part | None
        if old is None:
            artifact = artifact_util._new_rewind_tombstone()
        else:
            artifact = await artifact_service.load_artifact(
                app_name=app_name or session.app_name,
                user_id=session.user_id,
                session_id=session.id,
                filename=filename,
                version=old,
            )
            if artifact is None:
                logger.warning(
                    "Artifact %s version %d not found during rewind for"
                    " session %s. Replacing with empty data.",
                    filename,
                    old,
                    session.id,
                )
                artifact = artifact_util._new_rewind_tombstone()
        delta[filename] = await artifact_service.save_artifact(
            app_name=app_name or session.app_name,
            user_id=session.user_id,
            session_id=session.id,
            filename=filename,
            artifact=artifact,
        )
    return delta


async def rewind_session(
    *,
    session_service: BaseSessionService,
    session: Session,
    rewind_before_invocation_id: str,
    artifact_service: BaseArtifactService | None = None,
    app_name: str | None = None,
    compute_state_delta: DeltaOf | None = None,
    compute_artifact_delta: DeltaOf | None = None,
) -> None:
    """Append the rewind event; InvocationNotFoundError if no event has that invocation id."""
    index = next(
        (
            i
            for i, event in enumerate(session.events)
            if event.invocation_id == rewind_before_invocation_id
        ),
        None,
    )
    if index is None:
        raise InvocationNotFoundError(f"Invocation ID not found: {rewind_before_invocation_id}")
    if compute_state_delta is not None:
        state_delta = await compute_state_delta(session, index)
    else:
        state_delta = await compute_state_delta_for_rewind(session, index)
    if compute_artifact_delta is not None:
        artifact_delta = await compute_artifact_delta(session, index)
    else:
        artifact_delta = await compute_artifact_delta_for_rewind(
            session, index, artifact_service=artifact_service, app_name=app_name
        )
    event = Event(
        invocation_id="e-" + platform_uuid.new_uuid(),
        author="user",
        actions=EventActions(
            rewind_before_invocation_id=rewind_before_invocation_id,
            state_delta=state_delta,
            artifact_delta=artifact_delta,
        ),
    )
    logger.info("Rewinding session to invocation: %s", event)
    await session_service.append_event(session=session, event=event)
