"""LoggingPlugin: prints a grey line for every callback point, as google.adk 2.13's does.

Runs on: activity side. Each hook prints in the activity that runs it, in the
worker process (the user message and before_run in the begin step, the model hooks
in the model step, the tool hooks in the tool call, on_event where the event is
recorded, after_run in its own step): the lines appear on the worker's stdout, in
the order the invocation does the work. A retried step prints its lines again.

Every line is `\\033[90m[<name>] <message>\\033[0m`; the texts, truncations and
the tool-error rules (a ReflectAndRetryToolPlugin answer, an MCP isError result
or a `tool_result_classifier` verdict is a TOOL ERROR; an error is logged once)
are 2.13's. The plugin never returns anything, so it never changes the run.
"""

from __future__ import annotations

import logging
from typing import Any

from google.genai import types

from ._callback_helpers import (
    ToolResultClassifier,
    _classify_tool_result_error,
    _is_durable_node_error,
    _mark_tool_error_recorded,
    _pop_tool_error_recorded,
    _validate_tool_result_classifier,
)
from .base_plugin import BasePlugin

logger = logging.getLogger("google_adk.google.adk.plugins.logging_plugin")


def _name_of(agent: Any) -> str:
    return agent.name if agent is not None and hasattr(agent, "name") else "Unknown"


class LoggingPlugin(BasePlugin):
    """Prints invocations, agents, model and tool calls, events and errors to stdout."""

    def __init__(
        self,
        name: str = "logging_plugin",
        *,
        tool_result_classifier: ToolResultClassifier | None = None,
    ) -> None:
        super().__init__(name)
        _validate_tool_result_classifier(tool_result_classifier)
        self._tool_result_classifier = tool_result_classifier

    async def on_user_message_callback(
        self, *, invocation_context: Any, user_message: types.Content
    ) -> None:
        ctx = invocation_context
        self._log("🚀 USER MESSAGE RECEIVED")
        self._log(f"   Invocation ID: {ctx.invocation_id}")
        self._log(f"   Session ID: {ctx.session.id}")
        self._log(f"   User ID: {ctx.user_id}")
        self._log(f"   App Name: {ctx.app_name}")
        self._log(f"   Root Agent: {_name_of(ctx.agent)}")
        self._log(f"   User Content: {self._format_content(user_message)}")
        if ctx.branch:
            self._log(f"   Branch: {ctx.branch}")
        return None

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self._log("🏃 INVOCATION STARTING")
        self._log(f"   Invocation ID: {invocation_context.invocation_id}")
        self._log(f"   Starting Agent: {_name_of(invocation_context.agent)}")
        return None

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        self._log("📢 EVENT YIELDED")
        self._log(f"   Event ID: {event.id}")
        self._log(f"   Author: {event.author}")
        self._log(f"   Content: {self._format_content(event.content)}")
        self._log(f"   Final Response: {event.is_final_response()}")
        if calls := event.get_function_calls():
            self._log(f"   Function Calls: {[c.name for c in calls]}")
        if responses := event.get_function_responses():
            self._log(f"   Function Responses: {[r.name for r in responses]}")
        if event.long_running_tool_ids:
            self._log(f"   Long Running Tools: {list(event.long_running_tool_ids)}")
        # a workflow node's final event: its output (unless its content is it) and failure
        node = event.node_info
        if node.path:
            self._log(f"   Node Path: {node.path}")
            if event.partial is not True:
                if event.output is not None and node.message_as_output is not True:
                    self._log(f"   Node Output: {self._format_value(event.output)}")
                if _is_durable_node_error(event):
                    self._log(
                        f"   Node Error: [{event.error_code}] {event.error_message or ''}".rstrip()
                    )
        return None

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self._log("✅ INVOCATION COMPLETED")
        self._log(f"   Invocation ID: {invocation_context.invocation_id}")
        self._log(f"   Final Agent: {_name_of(invocation_context.agent)}")
        return None

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._log("🤖 AGENT STARTING")
        self._log(f"   Agent Name: {callback_context.agent_name}")
        self._log(f"   Invocation ID: {callback_context.invocation_id}")
        if callback_context._invocation_context.branch:
            self._log(f"   Branch: {callback_context._invocation_context.branch}")
        return None

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._log("🤖 AGENT COMPLETED")
        self._log(f"   Agent Name: {callback_context.agent_name}")
        self._log(f"   Invocation ID: {callback_context.invocation_id}")
        return None

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        self._log("🧠 LLM REQUEST")
        self._log(f"   Model: {llm_request.model or 'default'}")
        self._log(f"   Agent: {callback_context.agent_name}")
        if instruction := llm_request.config.system_instruction:
            rendered = self._render_system_instruction(instruction)
            shown = rendered[:200] + ("..." if len(rendered) > 200 else "")
            self._log(f"   System Instruction: '{shown}'")
        if llm_request.tools_dict:
            self._log(f"   Available Tools: {list(llm_request.tools_dict.keys())}")
        return None

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        """A streamed chunk's error and finish reason are not logged: only the final one's."""
        self._log("🧠 LLM RESPONSE")
        self._log(f"   Agent: {callback_context.agent_name}")
        final = llm_response.partial is not True
        if final and llm_response.error_code:
            self._log(f"   ❌ ERROR - Code: {llm_response.error_code}")
            self._log(f"   Error Message: {llm_response.error_message}")
        else:
            self._log(f"   Content: {self._format_content(llm_response.content)}")
            if llm_response.partial:
                self._log(f"   Partial: {llm_response.partial}")
            if llm_response.turn_complete is not None:
                self._log(f"   Turn Complete: {llm_response.turn_complete}")
        if final and (reason := llm_response.finish_reason):
            self._log(f"   Finish Reason: {getattr(reason, 'value', reason)}")
        if usage := llm_response.usage_metadata:
            self._log(
                f"   Token Usage - Input: {usage.prompt_token_count},"
                f" Output: {usage.candidates_token_count}"
            )
        return None

    async def before_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any
    ) -> None:
        self._log("🔧 TOOL STARTING")
        self._log(f"   Tool Name: {tool.name}")
        self._log(f"   Agent: {tool_context.agent_name}")
        self._log(f"   Function Call ID: {tool_context.function_call_id}")
        self._log(f"   Arguments: {self._format_args(tool_args)}")
        return None

    async def after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> None:
        """A later plugin's answer to an error logged here is not logged again; a result
        that reports a failure is a TOOL ERROR."""
        if _pop_tool_error_recorded(self, tool_context):
            return None
        error = _classify_tool_result_error(
            tool=tool,
            tool_args=tool_args,
            tool_context=tool_context,
            result=result,
            tool_result_classifier=self._tool_result_classifier,
            log=logger,
        )
        head = [
            f"   Tool Name: {tool.name}",
            f"   Agent: {tool_context.agent_name}",
            f"   Function Call ID: {tool_context.function_call_id}",
        ]
        if error is not None:
            lines = ["🔧 TOOL ERROR", *head, f"   Arguments: {self._format_args(tool_args)}"]
            lines += [f"   Result: {self._format_args(result)}", f"   Error: {error}"]
        else:
            lines = ["🔧 TOOL COMPLETED", *head, f"   Result: {self._format_args(result)}"]
        for line in lines:
            self._log(line)
        return None

    async def on_model_error_callback(
        self, *, callback_context: Any, llm_request: Any, error: Exception
    ) -> None:
        self._log("🧠 LLM ERROR")
        self._log(f"   Agent: {callback_context.agent_name}")
        self._log(f"   Error: {error}")
        return None

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Exception
    ) -> None:
        lines = [
            "🔧 TOOL ERROR",
            f"   Tool Name: {tool.name}",
            f"   Agent: {tool_context.agent_name}",
            f"   Function Call ID: {tool_context.function_call_id}",
            f"   Arguments: {self._format_args(tool_args)}",
            f"   Error: {error}",
        ]
        # marked once every line is rendered: a marked call's answer is not logged again
        _mark_tool_error_recorded(self, tool_context)
        for line in lines:
            self._log(line)
        return None

    def _log(self, message: str) -> None:
        print(f"\033[90m[{self.name}] {message}\033[0m")  # grey, then reset

    def _render_system_instruction(self, instruction: Any) -> str:
        if isinstance(instruction, str):
            return instruction
        if isinstance(instruction, types.Content):
            return self._format_content(instruction)
        if isinstance(instruction, types.Part):
            return self._format_content(types.Content(parts=[instruction]))
        if isinstance(instruction, list):
            return " | ".join(self._render_system_instruction(entry) for entry in instruction)
        return str(instruction)

    def _format_content(self, content: types.Content | None, max_length: int = 200) -> str:
        if not content or not content.parts:
            return "None"
        shown = []
        for part in content.parts:
            if part.text:
                text = part.text.strip()
                shown.append(
                    f"text: '{text[:max_length] + '...' if len(text) > max_length else text}'"
                )
            elif part.function_call:
                shown.append(f"function_call: {part.function_call.name}")
            elif part.function_response:
                shown.append(f"function_response: {part.function_response.name}")
            elif part.code_execution_result:
                shown.append("code_execution_result")
            else:
                shown.append("other_part")
        return " | ".join(shown)

    def _format_args(self, args: Any, max_length: int = 300) -> str:
        if not args:
            return "{}"
        formatted = str(args)
        return formatted[:max_length] + "...}" if len(formatted) > max_length else formatted

    def _format_value(self, value: Any, max_length: int = 300) -> str:
        formatted = repr(value) if isinstance(value, str) else str(value)
        return formatted[:max_length] + "..." if len(formatted) > max_length else formatted
