"""Event: one entry of a session's log (a message, a tool call, a tool result...).

Runs on: both sides (pure data, sandbox-safe). On the workflow side `id` and
`timestamp` are always given explicitly (from workflow.uuid4()/workflow.now()).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from google.genai import types
from google.genai._transformers import t_content
from pydantic import (
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    alias_generators,
    field_serializer,
    model_serializer,
    model_validator,
)

from ..models.llm_response import LlmResponse
from ..platform import time as platform_time
from ..platform import uuid as platform_uuid
from ..utils._compact import COMPACT, Compact
from .event_actions import EventActions


class NodeInfo(Compact):
    """Where in the agent tree an event was produced (google-adk 2.13's node metadata).

    `path` is `name@run/name@run/...`: `root@1` for the root LlmAgent's first run
    in an invocation, `root@1/a@2` for its sub-agent `a`'s second run under it;
    empty on user events and when the root agent is not an LlmAgent.
    """

    model_config = ConfigDict(
        ser_json_bytes="base64",
        val_json_bytes="base64",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    path: str = ""
    output_for: list[str] | None = None
    """Node paths whose output this event also is (workflow graphs: not run here)."""
    message_as_output: bool | None = None
    """The event's content is the node's output (workflow graphs: not run here)."""

    @property
    def run_id(self) -> str:
        """The run id of the leaf segment (`2` in `root@1/a@2`), or ''."""
        leaf = self.path.rsplit("/", 1)[-1] if self.path else ""
        _, at, run = leaf.rpartition("@")
        return run if at else ""

    @property
    def parent_run_id(self) -> str | None:
        """The run id of the parent segment, None for a path of one segment."""
        if "/" not in self.path:
            return None
        return NodeInfo(path=self.path.rsplit("/", 1)[0]).run_id or None

    @property
    def name(self) -> str:
        """The leaf segment's node name (without its `@run`)."""
        leaf = self.path.rsplit("/", 1)[-1] if self.path else ""
        return leaf.rsplit("@", 1)[0]


_SHORTHANDS = ("message", "state", "route", "node_path")
"""google-adk 2.13's Event keyword shorthands."""


class Event(LlmResponse):
    """An event in a session: who said what, and what it changed."""

    model_config = ConfigDict(
        extra="ignore",
        ser_json_bytes="base64",
        val_json_bytes="base64",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    invocation_id: str = ""
    """The invocation this event belongs to."""
    author: str = ""
    """'user' or the name of the agent that produced the event."""
    actions: EventActions = Field(default_factory=EventActions)
    """Side effects (state delta, transfer, escalation...)."""
    output: Any | None = None
    """A workflow node's output (google-adk 2.13 workflow graphs; not produced here)."""
    node_info: NodeInfo = Field(default_factory=NodeInfo)
    """Where in the agent tree the event was produced (see NodeInfo)."""
    long_running_tool_ids: set[str] | None = None
    """Ids of function calls of long-running tools in this event."""
    branch: str | None = None
    """Dot-separated agent path (`root.child`) isolating parallel branches."""
    isolation_scope: str | None = None
    """google-adk 2.13's internal scope tag (its Task API): an event carrying one
    is hidden from every agent here (all unscoped), as from ADK's unscoped agents."""
    id: str = ""
    """Unique id; assigned when empty."""
    timestamp: float = Field(
        # whole microseconds, as a stored session gives it back (its update time too)
        default_factory=lambda: datetime.fromtimestamp(platform_time.get_time()).timestamp()
    )
    """Seconds since the epoch (the platform's time provider's, adk.platform.time)."""

    @model_serializer(mode="wrap")
    def _compact_parts(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        """In a payload recorded in history (COMPACT asked, adk/utils/_compact.py), an
        event leaves out its actions and node info when both say nothing (`{}`): read
        back, they are their defaults again."""
        data = handler(self)
        context = info.context
        if isinstance(context, dict) and context.get(COMPACT) and isinstance(data, dict):
            for name in ("actions", "node_info"):
                if data.get(name) == {}:
                    del data[name]
        return data

    @field_serializer("long_running_tool_ids")
    def _sorted_ids(self, ids: set[str] | None) -> list[str] | None:
        """Sorted: the same event serializes to the same bytes in every process."""
        return sorted(ids) if ids is not None else None

    @model_validator(mode="before")
    @classmethod
    def _convenience_kwargs(cls, data: Any) -> Any:
        """google-adk 2.13's shorthands: `message` (content), `state` (actions.state_delta),
        `route` (actions.route), `node_path` (node_info.path); a subclass declaring
        one of these names as a field keeps it."""
        if not isinstance(data, dict) or not any(k in data for k in _SHORTHANDS):
            return data  # (every event validated goes through here: keep it cheap)
        names = set(cls.model_fields) | {f.alias for f in cls.model_fields.values() if f.alias}
        data = dict(data)
        taken = {k: data.pop(k, None) for k in _SHORTHANDS if k not in names}
        taken = {k: v for k, v in taken.items() if v is not None}
        if "message" in taken:
            if data.get("content") is not None:
                raise ValueError(
                    "'message' and 'content' are mutually exclusive. Use one or the other."
                )
            data["content"] = t_content(taken["message"])
        if "state" in taken or "route" in taken:
            actions = data.get("actions")
            if actions is None or isinstance(actions, (dict, EventActions)):
                if isinstance(actions, EventActions):
                    actions = actions.model_dump()
                actions = dict(actions or {})
                if "state" in taken:
                    actions["state_delta"] = taken["state"]
                if "route" in taken:
                    actions["route"] = taken["route"]
                data["actions"] = actions
        if "node_path" in taken:
            info = data.get("node_info")
            if info is None or isinstance(info, (dict, NodeInfo)):
                info = info.model_dump() if isinstance(info, NodeInfo) else dict(info or {})
                info["path"] = taken["node_path"]
                data["node_info"] = info
        return data

    @property
    def message(self) -> Any:
        """The event's content (or a subclass's own `message` field)."""
        if "message" in type(self).model_fields:
            return self.__dict__.get("message")
        return self.content

    @message.setter
    def message(self, value: Any) -> None:
        if "message" in type(self).model_fields:
            self.__pydantic_validator__.validate_assignment(self, "message", value)
            return
        self.content = t_content(value) if value is not None else None

    @property
    def node_name(self) -> str:
        """The name of the agent run that produced the event ('' on agent-state events)."""
        if self.actions.agent_state or self.actions.end_of_agent:
            return ""
        return self.node_info.name

    def model_post_init(self, __context: object) -> None:
        if not self.id:
            self.id = Event.new_id()

    def is_final_response(self) -> bool:
        """Whether this event ends the agent's turn (ADK's termination predicate)."""
        if self.actions.skip_summarization or self.long_running_tool_ids:
            return True
        if self.error_code and not self.partial and not self.get_function_calls():
            return True
        return (
            not self.get_function_calls()
            and not self.get_function_responses()
            and not self.partial
            and not self.has_trailing_code_execution_result()
        )

    def get_function_calls(self) -> list[types.FunctionCall]:
        """The function calls in this event, in order."""
        if not self.content or not self.content.parts:
            return []
        return [p.function_call for p in self.content.parts if p.function_call]

    def get_function_responses(self) -> list[types.FunctionResponse]:
        """The function responses in this event, in order."""
        if not self.content or not self.content.parts:
            return []
        return [p.function_response for p in self.content.parts if p.function_response]

    def has_trailing_code_execution_result(self) -> bool:
        """Whether the last part is a code execution result."""
        if self.content and self.content.parts:
            return self.content.parts[-1].code_execution_result is not None
        return False

    @staticmethod
    def new_id() -> str:
        return platform_uuid.new_uuid()
