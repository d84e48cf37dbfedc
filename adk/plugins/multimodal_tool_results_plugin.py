"""MultimodalToolResultsPlugin: a function tool may return Parts; what the function
response cannot carry (a text part, say) is attached to the next model request, as
google.adk 2.13 does.

Runs on: activity side (after_tool in the tool call's activity, before_model in the
model step). The parts travel between the two in state, as in 2.13: under
`temp:PARTS_RETURNED_BY_TOOLS_ID` (the invocation's temp state, which the workflow
carries from the tool call to the next model step, sealed in history) or, with
`retention="session"`, under the persisted
`multimodal_tool_results_plugin:PARTS_RETURNED_BY_TOOLS_ID`. State crosses activities
as JSON, so a part read back from state may be its JSON form: before_model turns it
back into a Part before attaching it, and the request is the same as 2.13's.

Media parts (bytes or a uri with a mime type) go into the function response itself
(the framework's `extract_media`); under the default retention they are not sent
twice. An ordinary (non-Part) result is returned as is, which, as in 2.13, skips
the later plugins' and the agent's after_tool callbacks.
"""

from __future__ import annotations

from typing import Any, Literal

from google.genai import types

from ..flows.llm_flows.functions import as_function_response_part
from .base_plugin import BasePlugin

PARTS_RETURNED_BY_TOOLS_ID = "temp:PARTS_RETURNED_BY_TOOLS_ID"
# not temp: retention="session" keeps the parts for later invocations
SESSION_PARTS_RETURNED_BY_TOOLS_ID = "multimodal_tool_results_plugin:PARTS_RETURNED_BY_TOOLS_ID"
_CURRENT_TURN_PARTS_ID = "temp:multimodal_tool_results_plugin:current_turn_parts"
_SESSION_UPDATED_KEY = "temp:multimodal_tool_results_plugin:updated_in_invocation"


def _parts(values: Any) -> list[Any]:
    """Parts from state: a part's JSON form (it crossed an activity) made a Part again."""
    return [types.Part.model_validate(v) if isinstance(v, dict) else v for v in values or []]


class MultimodalToolResultsPlugin(BasePlugin):
    """Lets a function tool return `types.Part` or `list[types.Part]`."""

    def __init__(
        self,
        name: str = "multimodal_tool_results_plugin",
        *,
        retention: Literal["next_model_call", "session"] = "next_model_call",
    ) -> None:
        if retention not in ("next_model_call", "session"):
            raise ValueError(f"retention must be 'next_model_call' or 'session', got {retention}")
        super().__init__(name)
        self._retention = retention

    async def after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> Any:
        """Saves the Parts a tool returned in state; any other result is returned as is."""
        if not (
            isinstance(result, types.Part)
            or isinstance(result, list)
            and result
            and isinstance(result[0], types.Part)
        ):
            return result
        parts = [result] if isinstance(result, types.Part) else result[:]
        state = tool_context.state
        if self._retention == "session":
            kept = [p for p in parts if not (isinstance(p, types.Part) and p.inline_data)]
            if kept:
                dumped = [
                    p.model_dump(mode="json") if isinstance(p, types.Part) else p for p in kept
                ]
                if _SESSION_UPDATED_KEY in state:
                    state[SESSION_PARTS_RETURNED_BY_TOOLS_ID] += dumped
                else:
                    state[_SESSION_UPDATED_KEY] = True
                    state[SESSION_PARTS_RETURNED_BY_TOOLS_ID] = dumped
            if _CURRENT_TURN_PARTS_ID in state:
                state[_CURRENT_TURN_PARTS_ID] += parts
            else:
                state[_CURRENT_TURN_PARTS_ID] = parts
            return None
        parts = [p for p in parts if as_function_response_part(p) is None]  # not sent twice
        if not parts:
            return None
        if PARTS_RETURNED_BY_TOOLS_ID in state:
            state[PARTS_RETURNED_BY_TOOLS_ID] += parts
        else:
            state[PARTS_RETURNED_BY_TOOLS_ID] = parts
        return None

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        """Attaches the saved parts to the request's last content."""
        if not llm_request.contents:
            return None
        state = callback_context.state
        if self._retention == "session":
            saved = _parts(state.get(SESSION_PARTS_RETURNED_BY_TOOLS_ID, None))
            current = _parts(state.get(_CURRENT_TURN_PARTS_ID, None))
            attach = [p for p in saved if p not in current] + current
            if current:
                state.update({_CURRENT_TURN_PARTS_ID: []})
            if attach:  # (the request's own copy of that content: it is changed in place)
                llm_request._own_content(len(llm_request.contents) - 1).parts += attach
            return None
        if saved := _parts(state.get(PARTS_RETURNED_BY_TOOLS_ID, None)):
            llm_request._own_content(len(llm_request.contents) - 1).parts += saved
            state.update({PARTS_RETURNED_BY_TOOLS_ID: []})
        return None
