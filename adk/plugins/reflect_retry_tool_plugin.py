"""ReflectAndRetryToolPlugin: a failed tool call becomes guidance the model can act on.

Runs on: activity side (its hooks run in the tool activity, in the worker process).

As google-adk 2.13's: a tool's exception (or an error its subclass finds in a
result) is answered with a structured reflection response, up to `max_retries`
consecutive failures of that tool in the scope (the invocation, or global);
then the error is raised again (or, with `throw_exception_if_retry_exceeded=False`,
a final "do not use this tool again" response). A success resets the tool's count.
The counts live in the plugin object, in the worker process, as ADK keeps them
in the Runner's process: calls of one invocation served by another worker (after
a crash, or with several workers) count from zero there.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from pydantic import BaseModel

from .base_plugin import BasePlugin

REFLECT_AND_RETRY_RESPONSE_TYPE = "ERROR_HANDLED_BY_REFLECT_AND_RETRY_PLUGIN"
GLOBAL_SCOPE_KEY = "__global_reflect_and_retry_scope__"

_REFLECTION = """
The call to tool `{tool}` failed.

**Error Details:**
```
{error_details}
```

**Tool Arguments Used:**
```json
{args_summary}
```

**Reflection Guidance:**
This is retry attempt **{retry_count} of {max_retries}**. Analyze the error and the arguments you provided. Do not repeat the exact same call. Consider the following before your next attempt:

1.  **Invalid Parameters**: Does the error suggest that one or more arguments are incorrect, badly formatted, or missing? Review the tool's schema and your arguments.
2.  **State or Preconditions**: Did a previous step fail or not produce the necessary state/resource for this tool to succeed?
3.  **Alternative Approach**: Is this the right tool for the job? Could another tool or a different sequence of steps achieve the goal?
4.  **Simplify the Task**: Can you break the problem down into smaller, simpler steps?
5.  **Wrong Function Name**: Does the error indicates the tool is not found? Please check again and only use available tools.

Formulate a new plan based on your analysis and try a corrected or different approach.
"""

_EXCEEDED = """
The tool `{tool}` has failed consecutively {max_retries} times and the retry limit has been exceeded.

**Last Error:**
```
{error_details}
```

**Last Arguments Used:**
```json
{args_summary}
```

**Final Instruction:**
**Do not attempt to use the `{tool}` tool again for this task.** You must now try a different approach. Acknowledge the failure and devise a new strategy, potentially using other available tools or informing the user that the task cannot be completed.
"""


class TrackingScope(Enum):
    """Where consecutive failures are counted."""

    INVOCATION = "invocation"
    GLOBAL = "global"


class ToolFailureResponse(BaseModel):
    """What the model gets instead of a failed tool's result."""

    response_type: str = REFLECT_AND_RETRY_RESPONSE_TYPE
    error_type: str = ""
    error_details: str = ""
    retry_count: int = 0
    reflection_guidance: str = ""


class ReflectAndRetryToolPlugin(BasePlugin):
    """Answers a failed tool call with reflection guidance, up to `max_retries` times."""

    def __init__(
        self,
        name: str = "reflect_retry_tool_plugin",
        max_retries: int = 3,
        throw_exception_if_retry_exceeded: bool = True,
        tracking_scope: TrackingScope = TrackingScope.INVOCATION,
    ) -> None:
        super().__init__(name)
        if max_retries < 0:
            raise ValueError("max_retries must be a non-negative integer.")
        self.max_retries = max_retries
        self.throw_exception_if_retry_exceeded = throw_exception_if_retry_exceeded
        self.scope = tracking_scope
        self._scoped_failure_counters: dict[str, dict[str, int]] = {}
        """scope key -> tool name -> consecutive failures (no await between read and
        write: the hooks of one worker's event loop cannot interleave there)."""

    async def after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> dict[str, Any] | None:
        if (
            isinstance(result, dict)
            and result.get("response_type") == REFLECT_AND_RETRY_RESPONSE_TYPE
        ):
            return None
        error = await self.extract_error_from_result(
            tool=tool, tool_args=tool_args, tool_context=tool_context, result=result
        )
        if error:
            return await self._handle_tool_error(tool, tool_args, tool_context, error)
        self._scoped_failure_counters.get(self._get_scope_key(tool_context), {}).pop(
            tool.name, None
        )
        return None

    async def extract_error_from_result(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> Any | None:
        """An error found in a successful call's result (override to detect some); None."""
        return None

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Exception
    ) -> dict[str, Any] | None:
        return await self._handle_tool_error(tool, tool_args, tool_context, error)

    async def _handle_tool_error(
        self, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Any
    ) -> dict[str, Any] | None:
        if self.max_retries == 0:
            if self.throw_exception_if_retry_exceeded:
                raise self._ensure_exception(error)
            return self._response(_EXCEEDED, tool, tool_args, error, self.max_retries)
        counter = self._scoped_failure_counters.setdefault(self._get_scope_key(tool_context), {})
        counter[tool.name] = count = counter.get(tool.name, 0) + 1
        if count <= self.max_retries:
            return self._response(_REFLECTION, tool, tool_args, error, count)
        if self.throw_exception_if_retry_exceeded:
            raise self._ensure_exception(error)
        return self._response(_EXCEEDED, tool, tool_args, error, self.max_retries)

    def _get_scope_key(self, tool_context: Any) -> str:
        """The key failures are counted under (override for per-user or per-session)."""
        if self.scope == TrackingScope.GLOBAL:
            return GLOBAL_SCOPE_KEY
        if not tool_context.invocation_id:
            raise ValueError("invocation_id must be provided for INVOCATION scope")
        return str(tool_context.invocation_id)

    def _ensure_exception(self, error: Any) -> Exception:
        return error if isinstance(error, Exception) else Exception(str(error))

    def _response(
        self, text: str, tool: Any, tool_args: dict[str, Any], error: Any, retry_count: int
    ) -> dict[str, Any]:
        details = f"{type(error).__name__}: {error}" if isinstance(error, Exception) else str(error)
        guidance = text.format(
            tool=tool.name,
            error_details=details,
            args_summary=json.dumps(tool_args, indent=2, default=str),
            retry_count=retry_count,
            max_retries=self.max_retries,
        )
        return ToolFailureResponse(
            error_type=type(error).__name__ if isinstance(error, Exception) else "ToolError",
            error_details=str(error),
            retry_count=retry_count,
            reflection_guidance=guidance.strip(),
        ).model_dump(mode="json")
