"""The session service interface (shaped like ADK's) and its shared state rules.

Runs on: activity and process side.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from adk.events.event import Event

from ._watch import Appended, Listening, SessionWatch, SessionWatchers
from .session import Session
from .state import State


class GetSessionConfig(BaseModel):
    """Limits on the events `get_session` loads."""

    num_recent_events: int | None = None
    after_timestamp: float | None = None


class ListSessionsResponse(BaseModel):
    """Sessions without their events."""

    sessions: list[Session] = Field(default_factory=list)


class BaseSessionService(abc.ABC):
    """Create, read, list and delete sessions; append events (applying their state delta)."""

    @abc.abstractmethod
    async def create_session(
        self,
        *,
        app_name: str,
        user_id: str,
        state: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> Session: ...

    @abc.abstractmethod
    async def get_session(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        config: GetSessionConfig | None = None,
    ) -> Session | None: ...

    @abc.abstractmethod
    async def list_sessions(
        self, *, app_name: str, user_id: str | None = None
    ) -> ListSessionsResponse: ...

    @abc.abstractmethod
    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None: ...

    async def get_user_state(self, *, app_name: str, user_id: str) -> dict[str, Any]:
        """The user's `user:` state, keys without the prefix ({} when none), read
        without a session (google-adk 2.13); a service that cannot raises
        NotImplementedError saying what to do instead."""
        raise NotImplementedError(
            f"{type(self).__name__} does not support get_user_state. "
            "To read user state, enumerate sessions via list_sessions and "
            "call get_session on each result to access the merged state."
        )

    async def flush(self) -> None:
        """Write out buffered events: nothing to do here, every append is written at once."""
        return None

    async def append_event(self, session: Session, event: Event) -> Event:
        """Record the event (`_persist`), then apply it to the in-memory session.

        Watches of the session (see `watch`) are notified, with the event's place
        (the session's sequence number before it, its own) when it is new there.
        """
        if event.partial:
            return event
        # as google.adk: `temp:` values reach this session object (the rest of its
        # invocation reads them) before the delta loses them for storage
        for name, value in event.actions.state_delta.items():
            if name.startswith(State.TEMP_PREFIX):
                session.state[name] = value
        _trim_temp_delta_state(event)
        key = (session.app_name, session.user_id, session.id)
        watchers = self._watchers()
        with watchers.appending(key):
            place = await self._persist(session, event)
            watchers.notify(key, None if place is None else Appended(*place, event))
        # a retried append (a store's place None: not new there): replace it in place
        for index in range(len(session.events) - 1, -1, -1) if place is None else ():
            recorded = session.events[index]
            if recorded.id == event.id:
                session.events[index] = event
                if recorded != event:  # different content (a retried model step): its delta
                    apply_state_delta(session.state, event.actions.state_delta)
                return event
        apply_state_delta(session.state, event.actions.state_delta)
        session.events.append(event)
        session.last_update_time = event.timestamp
        return event

    async def _persist(self, session: Session, event: Event) -> tuple[int, int] | None:
        """Store the event; its place when it is new in the session. The default
        stores nothing (a subclass may also override `append_event` and call it)."""
        return None

    async def get_step_session(
        self, *, app_name: str, user_id: str, session_id: str, event_ids: Sequence[str]
    ) -> Session | None:
        """The session as a step that records `event_ids` sees it (a durable-adk extension).

        An activity may run twice: a worker killed after its step's events were
        recorded, before Temporal heard of it. The second attempt must see the
        session as of its step: without those events, and with the state they wrote
        undone (keys another writer changed since keep that writer's value). Its own
        records then replace the first attempt's in full (`append_event` of the same
        id), or `retract_event` removes one it does not record again.

        This default drops the events but cannot undo their state writes: a store
        that keeps what each event overwrote (as the SQLite store does) overrides it.
        """
        session = await self.get_session(app_name=app_name, user_id=user_id, session_id=session_id)
        if session is not None:
            session.events = [e for e in session.events if e.id not in event_ids]
        return session

    async def retract_event(self, session: Session, event_id: str) -> None:
        """Delete a recorded event and undo its state writes (a durable-adk extension):
        a retried step that does not record what its first attempt recorded. This
        default only drops it from `session`."""
        session.events = [e for e in session.events if e.id != event_id]

    def watch(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> contextlib.AbstractContextManager[SessionWatch]:
        """A watch set whenever an event of the session is appended through this instance.

        A durable-adk extension for streams: a client in the worker's process wakes
        up at once; one in another process sees nothing here, and learns of appends
        from the invocation's workflow histories (client/_follow.py).
        """
        return self._watchers().watch((app_name, user_id, session_id))

    @contextlib.asynccontextmanager
    async def appends_elsewhere(
        self, *, app_name: str, user_id: str, session_id: str, on_append: Callable[[int], None]
    ) -> AsyncIterator[Listening]:
        """While inside, call `on_append(seq)` whenever any process records an event of the
        session, where the store can tell (a durable-adk extension for streams:
        `DatabaseSessionService` on PostgreSQL listens for its notifications). Yields
        a Listening, alive while it does; this default cannot (streams learn of appends
        from Temporal).
        """
        yield Listening()

    async def set_app_root_agent(self, *, app_name: str, agent_name: str) -> None:
        """Publish the name of the app's root agent (a durable-adk extension).

        A worker does so the first time it begins an invocation of the app;
        starters read it (`get_app_root_agent`) to name the agent in the
        invocation's `AdkAgent` search attribute from the start. This default
        keeps it in the instance; a shared store keeps it for every process.
        """
        self.__dict__.setdefault("_app_root_agents", {})[app_name] = agent_name

    async def get_app_root_agent(self, *, app_name: str) -> str | None:
        """The root agent a worker last published for the app, or None."""
        return self.__dict__.get("_app_root_agents", {}).get(app_name)  # type: ignore[no-any-return]

    def _watchers(self) -> SessionWatchers:
        watchers = self.__dict__.get("_session_watchers")
        if watchers is None:
            watchers = self.__dict__.setdefault("_session_watchers", SessionWatchers())
        return watchers  # type: ignore[no-any-return]

    @abc.abstractmethod
    async def get_state(
        self, *, app_name: str, user_id: str, session_id: str
    ) -> dict[str, Any] | None:
        """The session's merged state (session, `app:` and `user:` keys), without its events."""

    @abc.abstractmethod
    async def list_events(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        after_seq: int = 0,
        invocation_id: str | None = None,
    ) -> list[tuple[int, Event]]:
        """Events in recorded order with their sequence numbers (for streaming)."""


def _trim_temp_delta_state(event: Event) -> None:
    """`temp:` keys live for one invocation and are never persisted."""
    delta = event.actions.state_delta
    for key in [k for k in delta if k.startswith(State.TEMP_PREFIX)]:
        del delta[key]


def apply_state_delta(state: dict[str, Any], delta: dict[str, Any]) -> None:
    """The one place state changes: absolute values (None is a value, kept as google-adk 2.13)."""
    for key, value in delta.items():
        if not key.startswith(State.TEMP_PREFIX):
            state[key] = value
