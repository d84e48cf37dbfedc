"""BaseAgent: name, description, the sub-agent tree and agent callbacks.

Runs on: process side (defined in user apps; the worker turns the tree into a
serializable spec that the workflow runs on; callbacks run in activities).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, Union

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, field_validator
from typing_extensions import deprecated

from .._unimplemented import not_implemented
from ..workflow._base_node import BaseNode
from ._orchestrating import OrchestrationContext
from .base_agent_config import BaseAgentConfig
from .callback_context import CallbackContext

if TYPE_CHECKING:
    from ..events.event import Event

_SingleAgentCallback = Callable[
    [CallbackContext], Union[Awaitable[types.Content | None], types.Content | None]
]
BeforeAgentCallback = Union[_SingleAgentCallback, list[_SingleAgentCallback]]
AfterAgentCallback = Union[_SingleAgentCallback, list[_SingleAgentCallback]]


logger = logging.getLogger(__name__)

SelfAgent = TypeVar("SelfAgent", bound="BaseAgent")


class BaseAgentState(BaseModel):
    """Base class for all agent states."""

    model_config = ConfigDict(extra="forbid")


AgentState = TypeVar("AgentState", bound=BaseAgentState)


class BaseAgent(BaseNode):
    """Base of every agent: a named node in the agent tree (and, as in google-adk 2.13,
    a workflow node: adk/workflow/_base_node.py)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    config_type: ClassVar[type[BaseAgentConfig]] = BaseAgentConfig
    """The YAML schema of this class (Agent Config): a custom agent class names its own.
    Deprecated in google-adk 2.13, with the separate config classes."""

    # name, description and google.adk 2.13's workflow-node settings come from BaseNode;
    # the node settings are not implemented for agents yet (a value other than the
    # default raises NotImplementedError at construction).
    parent_agent: BaseAgent | None = Field(default=None, init=False, repr=False, exclude=True)
    sub_agents: list[BaseAgent] = Field(default_factory=list)
    before_agent_callback: BeforeAgentCallback | None = None
    after_agent_callback: AfterAgentCallback | None = None

    @field_validator("name", mode="after")
    @classmethod
    def _validate_name(cls, value: str) -> str:
        from ..workflow._errors import WorkflowConfigurationError

        if not value.isidentifier():  # google-adk 2.13: its BaseNode's check comes first
            raise WorkflowConfigurationError(
                f"Node name '{value}' must be a valid Python identifier."
            )
        if value == "user":
            raise ValueError(
                "Agent name cannot be `user`. `user` is reserved for end-user's input."
            )
        return value

    @field_validator("sub_agents", mode="after")
    @classmethod
    def _warn_duplicate_names(cls, value: list[BaseAgent]) -> list[BaseAgent]:
        seen: set[str] = set()
        duplicates: set[str] = set()
        for sub_agent in value:
            names = _subtree_names(sub_agent)
            duplicates |= seen & names
            seen |= names
        _warn_duplicate_agent_names(duplicates)
        return value

    def model_post_init(self, __context: Any) -> None:
        self._refuse_unimplemented()
        # in two or more branches: already warned by _warn_duplicate_names
        if sum(self.name in _subtree_names(sub_agent) for sub_agent in self.sub_agents) == 1:
            _warn_duplicate_agent_names({self.name})
        for sub_agent in self.sub_agents:
            if sub_agent.parent_agent is not None:
                raise ValueError(
                    f"Agent `{sub_agent.name}` already has a parent agent, current"
                    f" parent: `{sub_agent.parent_agent.name}`, trying to add:"
                    f" `{self.name}`"
                )
            sub_agent.parent_agent = self

    def _refuse_unimplemented(self) -> None:
        for setting, feature in self._unimplemented_settings():
            given = setting if "=" in setting else f"{setting}=..."
            raise not_implemented(f"{type(self).__name__}({given})", feature)

    def clone(self: SelfAgent, update: Mapping[str, Any] | None = None) -> SelfAgent:
        """A copy of this agent (google.adk's clone): `update` sets fields of the copy.

        The copy has no parent; its sub-agents are clones of these (unless
        `update` gives its own), and its list fields are lists of its own. A
        callback that is a method of this agent is bound to the copy instead.
        """
        if update is not None and "parent_agent" in update:
            raise ValueError(
                "Cannot update `parent_agent` field in clone. Parent agent is set"
                " only when the parent agent is instantiated with the sub-agents."
            )
        unknown = set(update or {}) - set(type(self).model_fields)
        if unknown:
            raise ValueError(
                f"Cannot update nonexistent fields in {type(self).__name__}: {unknown}"
            )
        copy = self.model_copy(update=update)
        copy._refuse_unimplemented()  # model_copy skips model_post_init

        def rebind(value: object) -> object:
            if inspect.ismethod(value) and value.__self__ is self:
                return value.__func__.__get__(copy)
            return value

        for field in type(copy).model_fields:
            if field in ("sub_agents", "parent_agent") or field in (update or {}):
                continue
            value = getattr(copy, field)
            if isinstance(value, list):
                setattr(copy, field, [rebind(item) for item in value])
            elif inspect.ismethod(value):
                setattr(copy, field, rebind(value))
        if update is None or "sub_agents" not in update:
            copy.sub_agents = [sub_agent.clone() for sub_agent in self.sub_agents]
        for sub_agent in copy.sub_agents:
            sub_agent.parent_agent = copy
        copy.parent_agent = None
        return copy

    def _unimplemented_settings(self) -> list[tuple[str, str]]:
        """(setting, missing feature) for each google.adk setting given that has no
        effect here yet: the agent would silently behave differently."""
        node = "google.adk 2.x workflow-node settings"
        found = [
            (name, node) for name in ("rerun_on_resume", "wait_for_output") if getattr(self, name)
        ]
        found += [
            (name, node)
            for name in ("retry_config", "timeout", "state_schema")
            if getattr(self, name) is not None
        ]
        found += [
            (name, f"{name} on a {type(self).__name__} (only LlmAgent has one here)")
            for name in ("input_schema", "output_schema")
            if getattr(self, name) is not None
        ]
        return found

    async def run_async(self, parent_context: Any) -> AsyncGenerator[Event, None]:
        """Run this agent from a custom agent's `_run_async_impl`: it runs as a child
        workflow (its callbacks too); its events come back as google-adk yields them.

        Elsewhere an agent runs through a Runner (each invocation a workflow)."""
        if not isinstance(parent_context, OrchestrationContext):
            raise NotImplementedError(
                f"{type(self).__name__}.run_async(ctx) runs here only inside a custom"
                " agent's _run_async_impl (with the ctx it was given); to run an agent,"
                " use a Runner: durable-adk runs every invocation as a workflow."
            )
        async for event in parent_context._run_sub_agent(self):
            yield event

    async def _run_async_impl(self, ctx: Any) -> AsyncGenerator[Event, None]:
        """A custom agent's orchestration (override it); runs in the workflow, so it
        must be deterministic (README, 'Custom agents')."""
        raise NotImplementedError(f"_run_async_impl for {type(self)} is not implemented.")
        yield  # an async generator

    async def run_live(self, parent_context: Any) -> AsyncGenerator[Event, None]:
        raise not_implemented(f"{type(self).__name__}.run_live", "live (audio/video) runs")
        yield  # an async generator

    async def _run_live_impl(self, ctx: Any) -> AsyncGenerator[Event, None]:
        raise not_implemented(f"{type(self).__name__}._run_live_impl", "live (audio/video) runs")
        yield  # an async generator

    @property
    def root_agent(self) -> BaseAgent:
        agent = self
        while agent.parent_agent is not None:
            agent = agent.parent_agent
        return agent

    def _load_agent_state(self, ctx: Any, state_type: type[AgentState]) -> AgentState | None:
        """This agent's state in a resumable invocation's context, if set."""
        raw = ctx.agent_states.get(self.name)
        return None if raw is None else state_type.model_validate(raw)

    def _create_agent_state_event(self, ctx: Any) -> Event:
        """An event recording this agent's state (or its end) as the context holds it."""
        from ..events.event import Event
        from ..events.event_actions import EventActions

        actions = EventActions()
        state = ctx.agent_states.get(self.name)
        if state is not None:
            actions.agent_state = state
        if ctx.end_of_agents.get(self.name):
            actions.end_of_agent = True
        return Event(
            invocation_id=ctx.invocation_id, author=self.name, branch=ctx.branch, actions=actions
        )

    def find_agent(self, name: str) -> BaseAgent | None:
        """This agent or a descendant with that name."""
        if self.name == name:
            return self
        return self.find_sub_agent(name)

    def find_sub_agent(self, name: str) -> BaseAgent | None:
        """A descendant with that name."""
        for sub_agent in self.sub_agents:
            if found := sub_agent.find_agent(name):
                return found
        return None

    @property
    def canonical_before_agent_callbacks(self) -> list[_SingleAgentCallback]:
        return _as_list(self.before_agent_callback)

    @property
    def canonical_after_agent_callbacks(self) -> list[_SingleAgentCallback]:
        return _as_list(self.after_agent_callback)

    @classmethod
    @deprecated(
        "BaseAgent.from_config is deprecated and will be removed in future"
        " versions. Use `google.adk.agents.config_agent_utils.from_config`"
        " instead."
    )
    def from_config(
        cls: type[SelfAgent], config: BaseModel | dict[str, Any], config_abs_path: str
    ) -> SelfAgent:
        """This class built from a config (its `config_type` model, or the YAML mapping);
        `config_abs_path` is the config file's path, for references to files beside it."""
        from . import _config_mapping as mapping

        if isinstance(config, BaseModel):
            data = config.model_dump(exclude_unset=True)
            data.update(config.model_extra or {})
        elif isinstance(config, dict):
            data = config
        else:
            raise ValueError(
                f"Invalid config type: expected Pydantic model or dict, got {type(config)}"
            )
        kwargs = mapping.Mapper(config_abs_path).map(data, cls)
        if mapping.overrides(cls, "_parse_config"):
            kwargs = cls._parse_config(config, config_abs_path, kwargs)
        return cls(**kwargs)

    @classmethod
    @deprecated(
        "BaseAgent._parse_config is deprecated and will be removed in future"
        " versions. Please define fields directly on the class or use the dynamic"
        " YAML loader."
    )
    def _parse_config(
        cls: type[SelfAgent], config: Any, config_abs_path: str, kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        """A hook: the constructor's arguments, given the config (deprecated)."""
        return kwargs

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def _subtree_names(agent: BaseAgent) -> set[str]:
    names = {agent.name}
    for sub_agent in agent.sub_agents:
        names |= _subtree_names(sub_agent)
    return names


def _warn_duplicate_agent_names(duplicates: set[str]) -> None:
    """google-adk 2.13 builds such a tree (find_agent finds the first depth first),
    with a warning."""
    if duplicates:
        logger.warning(
            "Found duplicate agent names: %s. All agents in the tree must have unique"
            " names. find_agent() returns the first match in a depth-first walk.",
            ", ".join(f"`{name}`" for name in sorted(duplicates)),
        )


def _as_list(callback: Any) -> list[Any]:
    if callback is None:
        return []
    return list(callback) if isinstance(callback, list) else [callback]


async def call_maybe_async(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a sync or async callable and return its (awaited) result."""
    result = func(*args, **kwargs)
    if inspect.isawaitable(result):
        result = await result
    return result
