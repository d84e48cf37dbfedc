"""McpInstructionProvider: an agent's instruction fetched from an MCP server's prompt.

Runs on: activity side. An instruction provider runs where the request is built:
in the model-step activity, once per model call (each step fetches the prompt
again; a retried step fetches it again too). Its MCP session is pooled in the
worker as an McpToolset's are (opened on first use, reused, reopened when the
transport died) and closed at worker shutdown with the agent tree's toolsets. A
failed connection fails the step's attempt while Temporal has attempts left, so
it runs again on a new session; on the last attempt the error reaches the
caller, as google-adk 2.13 raises it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..tools._transient import TransientToolError, retry_available
from ..tools.mcp_tool._sdk import ClientSession, types
from ..tools.mcp_tool._session import is_connection_failure
from ..tools.mcp_tool.mcp_session_manager import MCPSessionManager
from .llm_agent import InstructionProvider
from .readonly_context import ReadonlyContext

__all__ = ["McpInstructionProvider"]


class McpInstructionProvider(InstructionProvider):  # type: ignore[misc]
    """Fetches agent instructions from an MCP server."""

    def __init__(self, connection_params: Any, prompt_name: str, errlog: TextIO = sys.stderr):
        """`connection_params`: the MCP server's (as McpToolset's); `prompt_name`: the
        MCP prompt to fetch; `errlog`: where a stdio server's stderr goes."""
        self._connection_params = connection_params
        self._errlog = errlog
        self._mcp_session_manager = MCPSessionManager(
            connection_params=self._connection_params, errlog=self._errlog
        )
        self.prompt_name = prompt_name

    async def __call__(self, context: ReadonlyContext) -> str:
        """The prompt's text messages joined: `prompts/list` finds the prompt's argument
        names, whose values come from the session state; `prompts/get` renders it."""
        state = dict(context.state or {})

        async def fetch(session: ClientSession) -> types.GetPromptResult:
            listed = await session.list_prompts()
            definition = next((p for p in listed.prompts if p.name == self.prompt_name), None)
            arguments: dict[str, Any] = {}
            if definition and definition.arguments:
                names = {argument.name for argument in definition.arguments}
                arguments = {k: v for k, v in state.items() if k in names}
            return await session.get_prompt(self.prompt_name, arguments=arguments)

        try:
            result = await self._mcp_session_manager.run(None, fetch)
        except Exception as error:
            if retry_available.get() and is_connection_failure(error):
                raise TransientToolError(
                    f"MCP prompt {self.prompt_name}: connection failed"
                    f" ({error or type(error).__name__}); retrying"
                ) from error
            raise
        if result and result.messages:
            return "".join(
                message.content.text
                for message in result.messages
                if message.content.type == "text"
            )
        raise ValueError(f"Failed to load MCP prompt '{self.prompt_name}'.")

    async def close(self) -> None:
        """durable-adk: close the provider's MCP session (ends a stdio server's process);
        the worker does it at shutdown. Safe to call twice."""
        await self._mcp_session_manager.close()
