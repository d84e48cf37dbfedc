"""LlmAgent (alias Agent): an agent driven by a model, with tools.

Runs on: process side (defined in user apps). Its ReAct loop runs in the
workflow over a spec; its instruction providers, callbacks, tools and model run
in activities.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Literal, Union

from google.genai import types
from pydantic import BaseModel, Field, PrivateAttr, field_validator, model_validator

from ..activity_options import ActivityOptions
from ..code_executors.base_code_executor import BaseCodeExecutor
from ..events.event import Event
from ..flows.llm_flows.functions import own_text
from ..models.base_llm import BaseLlm
from ..models.llm_request import LlmRequest
from ..models.llm_response import LlmResponse
from ..models.registry import LLMRegistry
from ..planners.base_planner import BasePlanner
from ..tools._transient import TransientToolError
from ..tools._unimplemented_tool import UnimplementedTool
from ..tools.base_tool import BaseTool
from ..tools.base_toolset import BaseToolset
from ..utils._agent_mode import LlmAgentMode
from ..utils._schema_utils import SchemaType, validate_schema
from . import _llm_agent_checks as checks
from .base_agent import BaseAgent, _as_list, call_maybe_async
from .base_agent_config import BaseAgentConfig
from .callback_context import CallbackContext
from .context import Context as ToolContext
from .llm_agent_config import LlmAgentConfig
from .readonly_context import ReadonlyContext

DEFAULT_MODEL = "gemini-2.5-flash"

logger = logging.getLogger(__name__)

InstructionProvider = Callable[[ReadonlyContext], Union[str, Awaitable[str]]]
ToolUnion = Union[Callable[..., Any], BaseTool, BaseToolset]

_SingleBeforeModelCallback = Callable[
    [CallbackContext, LlmRequest], Union[Awaitable[LlmResponse | None], LlmResponse | None]
]
_SingleAfterModelCallback = Callable[
    [CallbackContext, LlmResponse], Union[Awaitable[LlmResponse | None], LlmResponse | None]
]
_SingleOnModelErrorCallback = Callable[
    [CallbackContext, LlmRequest, Exception],
    Union[Awaitable[LlmResponse | None], LlmResponse | None],
]
_SingleBeforeToolCallback = Callable[
    [BaseTool, dict[str, Any], ToolContext],
    Union[Awaitable[dict[str, Any] | None], dict[str, Any] | None],
]
_SingleAfterToolCallback = Callable[
    [BaseTool, dict[str, Any], ToolContext, dict[str, Any]],
    Union[Awaitable[dict[str, Any] | None], dict[str, Any] | None],
]
_SingleOnToolErrorCallback = Callable[
    [BaseTool, dict[str, Any], ToolContext, Exception],
    Union[Awaitable[dict[str, Any] | None], dict[str, Any] | None],
]
BeforeModelCallback = Union[_SingleBeforeModelCallback, list[_SingleBeforeModelCallback]]
AfterModelCallback = Union[_SingleAfterModelCallback, list[_SingleAfterModelCallback]]
OnModelErrorCallback = Union[_SingleOnModelErrorCallback, list[_SingleOnModelErrorCallback]]
BeforeToolCallback = Union[_SingleBeforeToolCallback, list[_SingleBeforeToolCallback]]
AfterToolCallback = Union[_SingleAfterToolCallback, list[_SingleAfterToolCallback]]
OnToolErrorCallback = Union[_SingleOnToolErrorCallback, list[_SingleOnToolErrorCallback]]


class LlmAgent(BaseAgent):
    """An agent that calls a model in a loop, running the tools it asks for."""

    DEFAULT_MODEL: ClassVar[str] = "gemini-3.5-flash"
    """google-adk 2.13's default model, for an agent with no model of its own or inherited."""
    DEFAULT_LIVE_MODEL: ClassVar[str] = "gemini-live-2.5-flash-native-audio"
    """google-adk 2.13's default live model (live runs are not implemented here)."""
    _default_model: ClassVar[str | BaseLlm] = DEFAULT_MODEL
    _default_live_model: ClassVar[str | BaseLlm] = DEFAULT_LIVE_MODEL
    config_type: ClassVar[type[BaseAgentConfig]] = LlmAgentConfig
    """Its YAML schema (Agent Config)."""

    model: str | BaseLlm = ""
    """Model name (resolved through LLMRegistry) or instance; inherited when empty."""
    instruction: str | InstructionProvider = ""
    """Template with {state} placeholders, or a callable returning the instruction."""
    global_instruction: str | InstructionProvider = ""
    """Deprecated in ADK: an instruction for every agent of the tree (root only)."""
    static_instruction: types.Content | str | list[Any] | None = None
    """An instruction never templated (cacheable)."""
    tools: list[ToolUnion] = Field(default_factory=list)
    generate_content_config: types.GenerateContentConfig | None = None
    """Sampling, safety... settings of every request (given as None: an empty one).
    Tools, system instruction, response schema and base URL have their own places."""
    mode: LlmAgentMode | None = None
    """google.adk 2.13's delegation mode: only chat is implemented (an LlmAgent
    parent sets its LlmAgent sub-agents' None to 'chat', as 2.13 does)."""
    parallel_worker: bool | None = None
    """google.adk 2.13's parallel worker mode: not implemented (must stay None)."""
    disallow_transfer_to_parent: bool = False
    disallow_transfer_to_peers: bool = False
    include_contents: Literal["default", "none"] = "default"
    input_schema: type[BaseModel] | None = None
    output_schema: SchemaType | None = None
    """The answer's schema, any form google-adk 2.13 takes (google-genai's SchemaUnion):
    a model class, `list[Model]`, `list[str]`, a JSON schema dict, a `types.Schema`..."""
    output_key: str | None = None
    """Save the agent's final text (or output_schema dict) to this state key."""
    planner: BasePlanner | None = None
    code_executor: BaseCodeExecutor | None = None
    """Runs the code the model writes (each execution an activity; see README)."""
    before_model_callback: BeforeModelCallback | None = None
    after_model_callback: AfterModelCallback | None = None
    on_model_error_callback: OnModelErrorCallback | None = None
    before_tool_callback: BeforeToolCallback | None = None
    after_tool_callback: AfterToolCallback | None = None
    on_tool_error_callback: OnToolErrorCallback | None = None
    model_activity_options: ActivityOptions | None = None
    """durable-adk: timeouts/retries of this agent's model steps."""
    tool_activity_options: ActivityOptions | None = None
    """durable-adk: timeouts/retries of this agent's tool calls (a tool's own options win)."""
    _function_tools: dict[int, tuple[Any, Any]] = PrivateAttr(default_factory=dict)
    _models: dict[tuple[str, int], BaseLlm] = PrivateAttr(default_factory=dict)
    _search_agent_tools: dict[int, tuple[Any, Any]] = PrivateAttr(default_factory=dict)

    # google-adk 2.13's construction checks (_llm_agent_checks). Pydantic runs
    # "before" model validators last-defined first: tools are checked first.
    @model_validator(mode="before")
    @classmethod
    def _refuse_config_kwargs(cls, data: Any) -> Any:
        fields = set(cls.model_fields)
        fields |= {f.alias for f in cls.model_fields.values() if f.alias is not None}
        return checks.refuse_config_kwargs(fields, data)

    @model_validator(mode="before")
    @classmethod
    def _refuse_agents_as_tools(cls, data: Any) -> Any:
        return checks.refuse_agents_as_tools(data)

    @field_validator("generate_content_config", mode="after")
    @classmethod
    def _check_generate_content_config(
        cls, config: types.GenerateContentConfig | None
    ) -> types.GenerateContentConfig:
        return checks.checked_config(config)

    def model_post_init(self, __context: Any) -> None:
        super().model_post_init(__context)
        checks.warn_two_thinking_configs(self)
        for sub_agent in self.sub_agents:
            if isinstance(sub_agent, LlmAgent) and sub_agent.mode is None:
                sub_agent.mode = "chat"

    def _unimplemented_settings(self) -> list[tuple[str, str]]:
        found = [
            (name, feature)
            for name, feature in super()._unimplemented_settings()
            if name not in ("input_schema", "output_schema")  # LlmAgent's own fields
        ]
        if self.code_executor is not None and self.code_executor.optimize_data_file:
            found.append(
                (
                    f"code_executor={type(self.code_executor).__name__}(optimize_data_file=True)",
                    "a code executor's data file optimization (optimize_data_file)",
                )
            )
        if self.mode not in (None, "chat"):
            found.append(("mode", f"the {str(self.mode)!r} agent mode (only 'chat' is)"))
        if self.parallel_worker is not None:
            found.append(("parallel_worker", "parallel worker mode"))
        found += [
            (f"tools=[{tool.name}]", tool.feature)
            for tool in self.tools
            if isinstance(tool, UnimplementedTool)
        ]
        return found

    @classmethod
    def set_default_model(cls, model: str | BaseLlm) -> None:
        """The model of agents with no model of their own nor an LlmAgent ancestor's.

        Process-wide (a class attribute), as in google-adk: set it in the worker's
        process (e.g. in the app's module), where the model steps run.
        """
        if not isinstance(model, (str, BaseLlm)):
            raise TypeError(
                "Default model must be a model name (str) or BaseLlm instance,"
                f" got {type(model).__name__}."
            )
        if isinstance(model, str) and not model:
            raise ValueError("Default model must be a non-empty string.")
        cls._default_model = model

    @classmethod
    def set_default_live_model(cls, model: str | BaseLlm) -> None:
        """google-adk's default live model (kept for its API; live runs are not implemented)."""
        if not isinstance(model, (str, BaseLlm)):
            raise TypeError(
                "Default live model must be a model name (str) or BaseLlm"
                f" instance, got {type(model).__name__}."
            )
        if isinstance(model, str) and not model:
            raise ValueError("Default live model must be a non-empty string.")
        cls._default_live_model = model

    @classmethod
    def _resolve_default_model(cls) -> BaseLlm:
        default = cls._default_model
        return default if isinstance(default, BaseLlm) else LLMRegistry.new_llm(default)

    @property
    def canonical_model(self) -> BaseLlm:
        """The model instance: own, else the nearest LlmAgent ancestor's, else the default."""
        if isinstance(self.model, BaseLlm):
            return self.model
        if self.model:
            return self._named_model(self.model)
        ancestor = self.parent_agent
        while ancestor is not None:
            if isinstance(ancestor, LlmAgent) and ancestor.model:
                return ancestor.canonical_model
            ancestor = ancestor.parent_agent
        default = self._default_model
        return default if isinstance(default, BaseLlm) else self._named_model(default)

    async def canonical_model_async(self, ctx: ReadonlyContext) -> BaseLlm:
        """`canonical_model` for one invocation (google-adk 2.13: the same model)."""
        del ctx
        return self.canonical_model

    @property
    def model_name(self) -> str:
        """The model's name without instantiating it (for summaries and specs)."""
        agent: BaseAgent | None = self
        while agent is not None:
            if isinstance(agent, LlmAgent) and agent.model:
                return agent.model.model if isinstance(agent.model, BaseLlm) else agent.model
            agent = agent.parent_agent
        default = self._default_model
        return default.model if isinstance(default, BaseLlm) else default

    def _named_model(self, name: str) -> BaseLlm:
        # one instance (and HTTP client) per name and event loop, reused across steps
        key = (name, _loop_id())
        llm = self._models.get(key)
        if llm is None:
            llm = self._models[key] = LLMRegistry.new_llm(name)
        return llm

    async def canonical_instruction(self, ctx: ReadonlyContext) -> tuple[str, bool]:
        """(instruction, bypass_state_injection): providers are not templated."""
        if isinstance(self.instruction, str):
            return self.instruction, False
        return str(await call_maybe_async(self.instruction, ctx)), True

    async def canonical_global_instruction(self, ctx: ReadonlyContext) -> tuple[str, bool]:
        if self.global_instruction:  # google-adk 2.13 warns here, on every request
            warnings.warn(
                "global_instruction field is deprecated and will be removed in a"
                " future version. Use GlobalInstructionPlugin instead for the same"
                " functionality at the App level. See migration guide for details.",
                DeprecationWarning,
                stacklevel=2,
            )
        if isinstance(self.global_instruction, str):
            return self.global_instruction, False
        return str(await call_maybe_async(self.global_instruction, ctx)), True

    async def canonical_tools(self, ctx: ReadonlyContext | None = None) -> list[BaseTool]:
        """The agent's tools as BaseTool instances (plain functions are wrapped, toolsets
        listed concurrently, in `tools` order, as in google-adk 2.13)."""
        return [tool for _, tools in await self._tool_groups(ctx) for tool in tools]

    async def _tool_groups(self, ctx: ReadonlyContext | None) -> list[tuple[Any, list[BaseTool]]]:
        """Each entry of `tools` with what it resolves to (a toolset: its listing)."""
        resolved = await asyncio.gather(*(self._resolve_tool(tool, ctx) for tool in self.tools))
        return list(zip(self.tools, resolved, strict=True))

    async def _resolve_tool(self, tool: Any, ctx: ReadonlyContext | None) -> list[BaseTool]:
        from ..tools.function_tool import FunctionTool

        tool = self._swapped_tool(tool)
        if isinstance(tool, BaseTool):
            return [tool]
        if isinstance(tool, BaseToolset):
            return await _toolset_tools(self.name, tool, ctx)
        if callable(tool):
            return [self._wrapped(tool, FunctionTool)]
        raise TypeError(f"Agent {self.name}: unsupported tool {tool!r}")

    def _swapped_tool(self, tool: Any) -> Any:
        """`tool`, or what google-adk 2.13 uses in its place: beside other tools or
        transfer targets, a GoogleSearchTool(bypass_multi_tools_limit=True) runs as a
        GoogleSearchAgentTool over this agent's model (one per tool, kept); a
        VertexAiSearchTool(bypass_multi_tools_limit=True) would be a
        DiscoveryEngineSearchTool, not implemented yet (NotImplementedError)."""
        from ..flows.llm_flows.agent_transfer import get_transfer_targets
        from ..tools.google_search_tool import GoogleSearchTool
        from ..tools.vertex_ai_search_tool import VertexAiSearchTool

        if not (
            isinstance(tool, GoogleSearchTool | VertexAiSearchTool)
            and tool.bypass_multi_tools_limit
        ):
            return tool
        if len(self.tools) <= 1 and not get_transfer_targets(self):
            return tool
        if isinstance(tool, VertexAiSearchTool):
            return tool._to_discovery_engine_search_tool()
        kept = self._search_agent_tools.get(id(tool))
        if kept is None or kept[0] is not tool:
            from ..tools.google_search_agent_tool import (
                GoogleSearchAgentTool,
                create_google_search_agent,
            )

            # the model itself when it is an instance; else its name, which the search
            # agent resolves as this agent would (a client per event loop)
            model = self.model if isinstance(self.model, BaseLlm) else self.model_name
            kept = (tool, GoogleSearchAgentTool(create_google_search_agent(model)))
            self._search_agent_tools[id(tool)] = kept
        return kept[1]

    async def _close_models(self) -> None:
        """Close the model clients this agent opened on the running event loop."""
        loop = _loop_id()
        for key in [key for key in self._models if key[1] == loop]:
            close = getattr(self._models.pop(key), "aclose", None)
            if close is not None:
                await close()

    def _wrapped(self, func: Callable[..., Any], wrapper: Any) -> BaseTool:
        """The FunctionTool for a plain function, built once (its declaration is cached)."""
        cached = self._function_tools.get(id(func))
        if cached is None or cached[0] is not func:
            cached = (func, wrapper(func))
            self._function_tools[id(func)] = cached
        return cached[1]  # type: ignore[no-any-return]

    @property
    def canonical_before_model_callbacks(self) -> list[_SingleBeforeModelCallback]:
        return _as_list(self.before_model_callback)

    @property
    def canonical_after_model_callbacks(self) -> list[_SingleAfterModelCallback]:
        return _as_list(self.after_model_callback)

    @property
    def canonical_on_model_error_callbacks(self) -> list[_SingleOnModelErrorCallback]:
        return _as_list(self.on_model_error_callback)

    @property
    def canonical_before_tool_callbacks(self) -> list[_SingleBeforeToolCallback]:
        return _as_list(self.before_tool_callback)

    @property
    def canonical_after_tool_callbacks(self) -> list[_SingleAfterToolCallback]:
        return _as_list(self.after_tool_callback)

    @property
    def canonical_on_tool_error_callbacks(self) -> list[_SingleOnToolErrorCallback]:
        return _as_list(self.on_tool_error_callback)

    def _maybe_save_output_to_state(self, event: Event) -> None:
        """Save this agent's final text (or output_schema dict) to `output_key`."""
        if event.author != self.name or not self.output_key:
            return
        if not event.is_final_response() or not event.content or not event.content.parts:
            return
        parts = event.content.parts
        if not any(p.text is not None and not p.thought for p in parts):
            return
        result: Any = "".join(p.text for p in parts if p.text and not p.thought)
        if self.output_schema:  # 2.13: an empty dict schema is none
            if not result.strip():
                return
            result = validate_schema(self.output_schema, result)
        event.actions.state_delta[self.output_key] = result

    def _maybe_accumulate_output(self, event: Event, earlier: list[Event]) -> None:
        """google-adk 2.13: without output_schema, `output_key` holds all this run's text.

        Every text-bearing event of this agent's run (a text before a function
        call too) sets `output_key` to the text of the run so far. `earlier`
        is the session's events before `event`; the run is this agent's events
        on the same invocation and branch after the last event that is not
        its own or was a final response (a run ends at one).
        """
        if (
            not self.output_key
            or getattr(self, "mode", None) == "task"
            or self.output_schema
            or event.author != self.name
            or event.partial
            or not event.content
            or not event.content.parts
        ):
            return
        text = own_text(event)
        if not text:
            return
        before: list[str] = []
        later = event
        for previous in reversed(earlier):
            if previous.invocation_id != event.invocation_id or previous.branch != event.branch:
                continue
            if previous.author != self.name or (
                previous.is_final_response() and not _code_ran_after(previous, later)
            ):
                break
            if not previous.partial:
                before.append(own_text(previous))
            later = previous
        event.actions.state_delta[self.output_key] = "".join(reversed(before)) + text

    @property
    def uses_auto_flow(self) -> bool:
        """AutoFlow (with agent transfer) unless both transfers are off and no sub-agents."""
        return not (
            self.disallow_transfer_to_parent
            and self.disallow_transfer_to_peers
            and not self.sub_agents
        )


Agent = LlmAgent


async def _toolset_tools(agent: str, toolset: Any, ctx: ReadonlyContext | None) -> list[BaseTool]:
    """A toolset's tools; one that fails to list is left out and logged, as in
    google-adk 2.13 (the agent runs without them). Each takes the toolset's
    `activity_options` unless it has its own."""
    try:
        tools: list[BaseTool] = await toolset.get_tools_with_prefix(ctx)
    except TransientToolError:
        raise  # a lost connection while a retry is to come: the step's attempt fails
    except Exception as error:
        prefix = toolset.tool_name_prefix
        logger.error(
            "Agent %s will run without the tools from toolset %s%s, which failed to load: %s",
            agent,
            type(toolset).__name__,
            f" (prefix {prefix!r})" if prefix else "",
            error,
            exc_info=True,
        )
        return []
    if (
        toolset.activity_options is not None
    ):  # durable-adk: the toolset's, unless a tool has its own
        for tool in tools:
            if tool.activity_options is None:
                tool.activity_options = toolset.activity_options
    return tools


def _code_ran_after(event: Event, later: Event) -> bool:
    """`event` showed code a code executor ran, `later` being its result: the run went
    on (google-adk 2.13's loop looks at the result, which is not a final response)."""
    parts = event.content.parts if event.content else None
    return bool(parts and parts[-1].executable_code) and later.has_trailing_code_execution_result()


def _loop_id() -> int:
    try:
        return id(asyncio.get_running_loop())
    except RuntimeError:
        return 0
