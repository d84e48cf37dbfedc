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


UNPORTED_CONTEXT_NAMES = frozenset(
    {
        # the Workflow node API (graph nodes, their runs, outputs, interrupts, routes)
        "attempt_count",
        "error",
        "error_node_path",
        "event_author",
        "interrupt_ids",
        "isolation_scope",
        "node",
        "node_path",
        "output",
        "parent_ctx",
        "resume_inputs",
        "route",
        "run_id",
        "run_node",
        "telemetry_context",
        "render_ui_widget",
        # credentials (auth) are not ported either
        "get_auth_response",
        "get_credential",
        "load_credential",
        "request_credential",
        "save_credential",
    }
)
"""What google-adk 2.13's contexts (ReadonlyContext, CallbackContext, ToolContext) have
and durable-adk's do not yet: reading one raises NotImplementedError naming it
(tests/unit/test_contexts.py keeps the list complete against 2.13)."""


class ReadonlyContext:
    def __init__(self, invocation_context: InvocationContext) -> None:
        self._invocation_context = invocation_context

    def __getattr__(self, name: str) -> Any:
        if name in UNPORTED_CONTEXT_NAMES:
            raise NotImplementedError(
                f"{type(self).__name__}.{name} (google.adk's Context.{name} in google-adk"
                " 2.13) is not implemented by durable-adk yet; see the README's porting"
                " section for what durable-adk implements."
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def is_aborted(self) -> bool:
        """Always False: an invocation here runs to its end even when the caller stops
        reading its events (google-adk 2.13 aborts it then)."""
        return False

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
    def custom_metadata(self) -> Mapping[str, Any]:
        """The run's custom metadata (RunConfig.custom_metadata without internal keys),
        read-only."""
        return MappingProxyType(self._invocation_context._custom_metadata)

    @property
    def state(self) -> Mapping[str, Any]:
        """The session state, read-only."""
        return MappingProxyType(self._invocation_context.session.state)
