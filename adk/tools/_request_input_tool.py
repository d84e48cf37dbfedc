"""request_input: google-adk 2.13's long-running tool that asks the user a question.

Runs on: activity side (the tool-call activity). The call waits durably for the
user's answer, which arrives as the call's final response. The docstring below is
the declaration's description the model sees: 2.13's text, exactly.
"""

from __future__ import annotations

import logging
from typing import Any

from .long_running_tool import LongRunningFunctionTool

logger = logging.getLogger(__name__)

REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input"


def _request_input_func(
    message: str,
    response_schema: dict[str, Any] | None = None,
) -> None:
    """Ask the user a question and wait for their response.

    Use this when you need clarification or additional information before
    proceeding.

    Args:
      message: The question or prompt to display to the user.
      response_schema: JSON Schema describing the expected response format. Use
        {"type": "string"} for free-text, {"type": "boolean"} for
        yes/no, or a structured object schema for complex input.

    Returns:
      None. Long-running tools return None to signal that the execution should
      pause and wait for user input.
    """
    logger.info("request_input called with message: %s", message)
    return None


_request_input_func.__name__ = REQUEST_INPUT_FUNCTION_CALL_NAME

request_input = LongRunningFunctionTool(_request_input_func)
