"""McpTool: one tool of an MCP server, called over the toolset's pooled session.

Runs on: activity side (the tool-call activity; its declaration is built in the
model step). Each call is its own activity. A failure of the connection (the
server unreachable, the transport dropped) fails the attempt while Temporal has
attempts left, so the call runs again on a fresh session; on the last attempt,
and for an error the server answered, the model gets google-adk 2.13's error
result instead.
"""

from __future__ import annotations

import inspect
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Union

from google.genai import types as genai_types

from ..._unimplemented import not_implemented
from ...agents.readonly_context import ReadonlyContext
from .._transient import TransientToolError, retry_available
from ..base_tool import BaseTool
from ._fencing import TOOL_DESCRIPTION_PREAMBLE, fence_schema_descriptions, fence_tool_description
from ._sdk import IS_MCP_SDK_V2, McpError, dump_model
from ._sdk import types as mcp_types
from ._session import is_connection_failure
from .mcp_session_manager import MCPSessionManager

if TYPE_CHECKING:
    from ...models.llm_request import LlmRequest
    from ..tool_context import ToolContext

logger = logging.getLogger(__name__)

RESERVED_TOOL_NAMES = frozenset(
    {
        "adk_request_credential",
        "adk_request_confirmation",
        "adk_request_input",
        "transfer_to_agent",
        "set_model_response",
    }
)
"""Names of ADK's framework tools: an MCP tool may not take one (google-adk 2.13)."""

HeaderProvider = Callable[[ReadonlyContext], Union[dict[str, str], Awaitable[dict[str, str]]]]

_CONFIRMATION_HINT = (
    "Please approve or reject the tool call {name}() by responding with a"
    " FunctionResponse with an expected ToolConfirmation payload."
)


def _field(model: Any, *names: str) -> Any:
    """The first of `names` the MCP model has (1.x camelCase, 2.x snake_case)."""
    for name in names:
        if hasattr(model, name):
            return getattr(model, name)
    raise AttributeError(f"{type(model).__name__} defines none of {names}")


class McpTool(BaseTool):
    """An MCP server's tool as an ADK tool."""

    def __init__(
        self,
        *,
        mcp_tool: mcp_types.Tool,
        mcp_session_manager: MCPSessionManager,
        auth_scheme: Any | None = None,
        auth_credential: Any | None = None,
        require_confirmation: bool | Callable[..., bool] = False,
        header_provider: HeaderProvider | None = None,
        progress_callback: Any | None = None,
        propagate_grounding_metadata: bool = False,
    ) -> None:
        for setting, value in (
            ("auth_scheme", auth_scheme),
            ("auth_credential", auth_credential),
            ("progress_callback", progress_callback),
            ("propagate_grounding_metadata", propagate_grounding_metadata or None),
        ):
            if value is not None:
                raise not_implemented(f"{type(self).__name__}({setting}=...)", "MCP " + setting)
        if mcp_tool.name in RESERVED_TOOL_NAMES:
            raise ValueError(
                f"MCP tool name '{mcp_tool.name}' collides with a reserved ADK tool name."
            )
        super().__init__(name=mcp_tool.name, description=mcp_tool.description or "")
        self._mcp_tool = mcp_tool
        self._mcp_session_manager = mcp_session_manager
        self._require_confirmation = require_confirmation
        self._header_provider = header_provider

    @property
    def raw_mcp_tool(self) -> mcp_types.Tool:
        return self._mcp_tool

    @property
    def may_ask_confirmation(self) -> bool:
        return bool(self._require_confirmation)

    @property
    def _reads_context(self) -> bool:
        """durable-adk: whether a call reads the session (else it runs alongside the
        step's other calls and the activity loads no session)."""
        return bool(self._require_confirmation or self._header_provider)

    def _get_declaration(self) -> genai_types.FunctionDeclaration:
        return self._build_declaration(fenced=False)

    def _build_declaration(self, *, fenced: bool) -> genai_types.FunctionDeclaration:
        """google-adk 2.13's declaration: the MCP schemas as JSON schema, as given."""
        input_schema = _field(self._mcp_tool, "inputSchema", "input_schema")
        output_schema = _field(self._mcp_tool, "outputSchema", "output_schema")
        description = self.description
        if fenced:
            description = fence_tool_description(description)
            if input_schema is not None:
                input_schema = fence_schema_descriptions(input_schema)
            if output_schema is not None:
                output_schema = fence_schema_descriptions(output_schema)
        return genai_types.FunctionDeclaration(
            name=self.name,
            description=description,
            parameters_json_schema=input_schema,
            response_json_schema=output_schema,
        )

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        """Declare the tool, its server-supplied texts fenced as untrusted data, and say
        so once in the system instruction (google-adk 2.13)."""
        await super().process_llm_request(tool_context=tool_context, llm_request=llm_request)
        instruction = llm_request.config.system_instruction
        if instruction is not None and not isinstance(instruction, str):
            logger.error(
                "Cannot fence tool descriptions: system_instruction must be a str or None,"
                " got %s; skipping fencing for this request.",
                type(instruction).__name__,
            )
            return
        if not self._replace_declaration(llm_request):
            logger.error(
                "Failed to find function declaration for tool %r in LlmRequest to apply fencing.",
                self.name,
            )
        if TOOL_DESCRIPTION_PREAMBLE not in (instruction or ""):
            llm_request.append_instructions([TOOL_DESCRIPTION_PREAMBLE])

    def _replace_declaration(self, llm_request: LlmRequest) -> bool:
        for tool in reversed(llm_request.config.tools or []):
            declarations = getattr(tool, "function_declarations", None)
            if not declarations:
                continue
            for i in range(len(declarations) - 1, -1, -1):
                if declarations[i].name == self.name:
                    declarations[i] = self._build_declaration(fenced=True)
                    return True
        return False

    async def check_require_confirmation(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> bool:
        predicate = self._require_confirmation
        if not callable(predicate):
            return bool(predicate)
        result = predicate(**_accepted(predicate, args, tool_context))
        if inspect.isawaitable(result):
            result = await result
        return bool(result)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        if await self.check_require_confirmation(args, tool_context):
            if not tool_context.tool_confirmation:
                tool_context.request_confirmation(hint=_CONFIRMATION_HINT.format(name=self.name))
                tool_context.actions.skip_summarization = True
                return {"error": "This tool call requires confirmation, please approve or reject."}
            if not tool_context.tool_confirmation.confirmed:
                return {"error": "This tool call is rejected."}
        try:
            return await self._call(args, tool_context)
        except McpError as error:
            _retry_if_transient(self.name, error)
            logger.warning("MCP tool execution failed with McpError: %s", error)
            return {"error": f"MCP tool execution failed: {error}"}
        except Exception as error:
            _retry_if_transient(self.name, error)
            logger.warning("Unexpected error during MCP tool execution: %s", error, exc_info=True)
            return {"error": f"Unexpected error during MCP tool execution: {error}"}

    async def _headers(self, tool_context: ToolContext) -> dict[str, str] | None:
        if self._header_provider is None:
            return None
        headers = self._header_provider(ReadonlyContext(tool_context._invocation_context))
        if inspect.isawaitable(headers):
            headers = await headers
        return dict(headers) or None

    async def _call(self, args: dict[str, Any], tool_context: ToolContext) -> dict[str, Any]:
        headers = await self._headers(tool_context)
        name = self._mcp_tool.name  # the server's name, not a prefixed one
        response = await self._mcp_session_manager.run(
            headers, lambda session: session.call_tool(name, arguments=args)
        )
        result = dump_model(response)
        if IS_MCP_SDK_V2:
            result.pop("resultType", None)
        return result


def _retry_if_transient(name: str, error: BaseException) -> None:
    """Fail the attempt (Temporal retries it on a new session) for a connection failure,
    while the activity has attempts left."""
    if retry_available.get() and is_connection_failure(error):
        raise TransientToolError(
            f"MCP tool {name}: connection failed ({error or type(error).__name__}); retrying"
        ) from error


def _accepted(func: Callable[..., Any], args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    """The arguments (and `tool_context`) that `func`'s signature takes."""
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return dict(args)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return {**args, "tool_context": ctx}
    chosen = {k: v for k, v in args.items() if k in params}
    if "tool_context" in params:
        chosen["tool_context"] = ctx
    return chosen


class MCPTool(McpTool):
    """Deprecated name, use `McpTool` instead."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            "MCPTool class is deprecated, use `McpTool` instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        super().__init__(*args, **kwargs)
