"""McpInstructionProvider against google-adk 2.13's, on a real MCP server
(tests/apps/mcp_notes/server.py over stdio): the same instruction, the same
errors; ours retries a lost connection through Temporal and closes its session.

Runs on: test process (the provider as the model-step activity calls it).
"""

from __future__ import annotations

import collections.abc
import os
import sys
from types import MappingProxyType
from typing import Any

import pytest

from adk import Agent
from adk.agents import McpInstructionProvider
from adk.agents._tree import close_toolsets
from adk.tools._transient import TransientToolError, retry_available
from adk.tools.mcp_tool import StdioConnectionParams
from adk.tools.mcp_tool.mcp_session_manager import StdioServerParameters
from tests.apps.mcp_notes.serving import SERVER


class _Context:
    """What a provider reads of its ReadonlyContext: the state."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = MappingProxyType(state)


def _server(command: str = sys.executable) -> StdioServerParameters:
    return StdioServerParameters(command=command, args=[str(SERVER)], env=dict(os.environ))


async def _both(prompt: str, state: dict[str, Any], command: str = sys.executable) -> list[Any]:
    """(ours, google-adk's): each the instruction, or the error as (class name, text)."""
    from google.adk.agents import McpInstructionProvider as Reference
    from google.adk.tools.mcp_tool import StdioConnectionParams as ReferenceParams

    results = []
    for provider in (
        McpInstructionProvider(
            StdioConnectionParams(server_params=_server(command), timeout=20), prompt
        ),
        Reference(ReferenceParams(server_params=_server(command), timeout=20), prompt),
    ):
        try:
            results.append(await provider(_Context(state)))  # type: ignore[arg-type]
        except Exception as error:
            results.append((type(error).__name__, str(error)))
        finally:
            await provider._mcp_session_manager.close()
    return results


@pytest.mark.parametrize(
    ("prompt", "state", "expected"),
    [
        ("persona", {"user_name": "Ann", "other": "x"}, "You keep the notes of Ann. Be cheerful."),
        ("persona", {"user_name": "Ann", "mood": "calm"}, "You keep the notes of Ann. Be calm."),
        ("house_rules", {"user_name": "Ann"}, "Keep short notes. Never delete a note."),
        ("nothing", {}, ("ValueError", "Failed to load MCP prompt 'nothing'.")),
        ("no_such_prompt", {}, ("MCPError", "Unknown prompt: no_such_prompt")),
    ],
)
async def test_the_instruction_and_errors_are_google_adks(
    prompt: str, state: dict[str, Any], expected: Any
) -> None:
    ours, reference = await _both(prompt, state)
    assert ours == reference == expected


async def test_a_missing_required_argument_fails_as_in_google_adk() -> None:
    ours, reference = await _both("persona", {})
    assert ours == reference
    assert ours[0] == "MCPError"


def test_the_class_is_an_instruction_provider_with_google_adks_attributes() -> None:
    from google.adk.agents.mcp_instruction_provider import McpInstructionProvider as Reference

    params = StdioConnectionParams(server_params=_server())
    ours = McpInstructionProvider(params, "persona")
    assert issubclass(McpInstructionProvider, collections.abc.Callable)  # type: ignore[arg-type]
    assert issubclass(Reference, collections.abc.Callable)  # type: ignore[arg-type]
    assert ours.prompt_name == "persona" and ours._connection_params is params
    assert ours._errlog is sys.stderr
    assert ours._mcp_session_manager.connection_params is params
    agent = Agent(name="a", instruction=ours)
    assert agent.instruction is ours


async def test_a_connection_failure_is_retried_while_attempts_remain() -> None:
    provider = McpInstructionProvider(
        StdioConnectionParams(server_params=_server(), timeout=20), "persona"
    )
    dead = StdioConnectionParams(
        server_params=StdioServerParameters(command=sys.executable, args=["-c", "pass"]), timeout=5
    )
    provider._mcp_session_manager._connection_params = dead  # a server that exits at once
    token = retry_available.set(True)
    try:
        with pytest.raises(TransientToolError, match="MCP prompt persona: connection failed"):
            await provider(_Context({"user_name": "Ann"}))  # type: ignore[arg-type]
    finally:
        retry_available.reset(token)
    with pytest.raises(ConnectionError) as raised:  # the last attempt: the error itself
        await provider(_Context({"user_name": "Ann"}))  # type: ignore[arg-type]
    assert not isinstance(raised.value, TransientToolError)
    await provider.close()


async def test_the_session_is_pooled_and_closed_with_the_agent_tree() -> None:
    provider = McpInstructionProvider(
        StdioConnectionParams(server_params=_server(), timeout=20), "persona"
    )
    rules = McpInstructionProvider(
        StdioConnectionParams(server_params=_server(), timeout=20), "house_rules"
    )
    root = Agent(name="root", instruction=provider, sub_agents=[Agent(name="b", instruction=rules)])
    for _ in range(2):
        assert await provider(_Context({"user_name": "Ann"})) == (  # type: ignore[arg-type]
            "You keep the notes of Ann. Be cheerful."
        )
    assert await rules(_Context({})) == "Keep short notes. Never delete a note."  # type: ignore[arg-type]
    assert len(provider._mcp_session_manager._sessions) == 1  # one session, reused
    await close_toolsets(root)
    assert not provider._mcp_session_manager._sessions
    assert not rules._mcp_session_manager._sessions
