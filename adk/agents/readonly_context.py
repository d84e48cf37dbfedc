"""ReadonlyContext: a read-only view of the invocation for instruction providers.

Runs on: activity side.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.genai import types

    from ..sessions.session import Session
    from .invocation_context import InvocationContext
    from .run_config import RunConfig


class ReadonlyContext:
    def __init__(self, invocation_context: InvocationContext) -> None:
        self._invocation_context = invocation_context

    @property
    def user_content(self) -> types.Content | None:
        return self._invocation_context.user_content

    @property
    def invocation_id(self) -> str:
        return self._invocation_context.invocation_id

    @property
    def agent_name(self) -> str:
        return str(self._invocation_context.agent.name)

    @property
    def branch(self) -> str | None:
        return self._invocation_context.branch

    @property
    def session(self) -> Session:
        """The session; user code reaching it gets objects the store's cache lets go of."""
        from ..sessions._event_cache import release

        return release(self._invocation_context.session)

    @property
    def user_id(self) -> str:
        return self._invocation_context.user_id

    @property
    def run_config(self) -> RunConfig | None:
        """The invocation's RunConfig (every activity's context gets the workflow's)."""
        return self._invocation_context.run_config

    @property
    def state(self) -> Mapping[str, Any]:
        """The session state, read-only."""
        return MappingProxyType(self._invocation_context.session.state)
