"""ReflectAndRetryModelPlugin: a failed model response becomes a reflection turn.

Runs on: activity side (its hooks run in the model step, in the worker process; the
reflection tool it adds runs in the tool activity, found as any tool a
before_model callback adds to the request).

As google-adk 2.13's: before each model call it adds its reserved tool
`adk_handle_model_error` to the request's tools (not to the declarations). A
response with an error code whose finish reason is one of `on_model_errors`
(malformed function calls by default), or a call of the reserved tool by the
model, is replaced by a synthesized call of that tool; the tool's result (the
reflection guidance) goes back to the model, which tries again. After
`max_retries` consecutive failures of the agent's model in the scope it raises
(or, with `throw_exception_if_retry_exceeded=False`, lets the failure through); a
good response resets the count. The counts live in the plugin object, in the
worker process (see the README's *Plugins*).
"""

from __future__ import annotations

import uuid
from typing import Any

from google.genai import types

from ..models.llm_request import LlmRequest
from ..models.llm_response import LlmResponse
from ..utils.content_utils import SKIP_THOUGHT_SIGNATURE_VALIDATOR
from .base_plugin import BasePlugin
from .reflect_retry_tool_plugin import (
    GLOBAL_SCOPE_KEY,
    REFLECT_AND_RETRY_RESPONSE_TYPE,
    TrackingScope,
)

RESERVED_TOOL_CALL_ERROR_TYPE = "RESERVED_TOOL_CALL"

_GUIDANCE = """
The call to the model failed.

**Reflection Guidance:**
- This is retry attempt **{retry_count}** of **{max_retries}**
- Analyze the error and the arguments you provided. Do not repeat the exact same call.

Formulate a new plan based on your analysis and try a corrected or different approach.
    """


class ReflectAndRetryModelPlugin(BasePlugin):
    """Turns a failed model response into a reflection turn, up to `max_retries` times."""

    def __init__(
        self,
        name: str = "reflect_retry_model_plugin",
        max_retries: int = 3,
        throw_exception_if_retry_exceeded: bool = True,
        tracking_scope: TrackingScope = TrackingScope.INVOCATION,
        on_model_errors: list[types.FinishReason] | None = None,
    ) -> None:
        super().__init__(name=name)
        if max_retries < 0:
            raise ValueError("max_retries must be a non-negative integer.")
        self.max_retries = max_retries
        self.throw_exception_if_retry_exceeded = throw_exception_if_retry_exceeded
        self.scope = tracking_scope
        errors = (
            [types.FinishReason.MALFORMED_FUNCTION_CALL]
            if on_model_errors is None
            else on_model_errors
        )
        for reason in errors:
            if not isinstance(reason, types.FinishReason):
                raise ValueError(f"model_error must be a FinishReason, got {reason}")
        self.on_model_errors = errors
        self._failures: dict[str, dict[str, int]] = {}
        """scope key -> model name -> consecutive failures (no await between read and
        write: the hooks of one worker's event loop cannot interleave there)."""

    def adk_handle_model_error(
        self,
        *,
        response_type: str,
        error_type: str | None,
        error_details: str | None,
        finish_reason: str | None,
        retry_count: int,
    ) -> dict[str, str]:
        """A tool that triggers reflection. Reserved for internal framework use only. Do not call directly."""
        return {
            "reflection_guidance": _GUIDANCE.format(
                retry_count=retry_count, max_retries=self.max_retries
            )
        }

    async def before_model_callback(
        self, *, callback_context: Any, llm_request: LlmRequest
    ) -> LlmResponse | None:
        from ..tools.function_tool import FunctionTool

        name = self.adk_handle_model_error.__name__
        llm_request.tools_dict[name] = FunctionTool(func=self.adk_handle_model_error)
        return None

    async def after_model_callback(
        self, *, callback_context: Any, llm_response: LlmResponse
    ) -> LlmResponse | None:
        reserved = self.adk_handle_model_error.__name__
        if any(call.name == reserved for call in llm_response.get_function_calls()):
            retry = self._retry(
                callback_context,
                error_type=RESERVED_TOOL_CALL_ERROR_TYPE,
                error_details=(
                    f"Model attempted to call reserved tool {reserved} directly. This tool is"
                    " reserved for framework use only. Do not call it."
                ),
                finish_reason=types.FinishReason.OTHER,
            )
            if retry is not None:
                return retry
            return LlmResponse(
                error_code=RESERVED_TOOL_CALL_ERROR_TYPE,
                error_message="Model attempted to call reserved tool and retry limit was exceeded.",
            )
        if llm_response.error_code and llm_response.finish_reason in self.on_model_errors:
            retry = self._retry(
                callback_context,
                error_type=llm_response.error_code,
                error_details=llm_response.error_message,
                finish_reason=llm_response.finish_reason,
            )
            return llm_response if retry is None else retry
        self._failures.get(self._scope_key(callback_context), {}).pop(
            self._model_name(callback_context), None
        )
        return None

    def _retry(
        self,
        callback_context: Any,
        *,
        error_type: str | None,
        error_details: str | None,
        finish_reason: types.FinishReason | None,
    ) -> LlmResponse | None:
        """Counts the failure; the synthesized reflection call while retries remain,
        else raises (or None, to let the failure through)."""
        counts = self._failures.setdefault(self._scope_key(callback_context), {})
        model = self._model_name(callback_context)
        counts[model] = count = counts.get(model, 0) + 1
        if count <= self.max_retries:
            name = self.adk_handle_model_error.__name__
            call = types.FunctionCall(
                id=f"{name}_{uuid.uuid4()}",
                name=name,
                args={
                    "response_type": REFLECT_AND_RETRY_RESPONSE_TYPE,
                    "error_type": error_type,
                    "error_details": error_details,
                    "finish_reason": finish_reason,
                    "retry_count": count,
                },
            )
            part = types.Part(
                function_call=call, thought_signature=SKIP_THOUGHT_SIGNATURE_VALIDATOR
            )
            return LlmResponse(content=types.Content(role="model", parts=[part]))
        if self.throw_exception_if_retry_exceeded:
            raise RuntimeError(
                f"The model has failed consecutively {self.max_retries}"
                " times and the retry limit has been exceeded."
            )
        return None

    def _scope_key(self, callback_context: Any) -> str:
        if self.scope == TrackingScope.GLOBAL:
            return GLOBAL_SCOPE_KEY
        invocation_id = callback_context.invocation_id
        if not invocation_id:
            raise ValueError("invocation_id must be provided for INVOCATION scope")
        return str(invocation_id)

    def _model_name(self, callback_context: Any) -> str:
        from ..agents.llm_agent import LlmAgent

        agent = callback_context.get_invocation_context().agent
        if isinstance(agent, LlmAgent):
            model = agent.canonical_model
            if model is not None and model.model:
                return str(model.model)
        raise ValueError("Agent model not found.")
