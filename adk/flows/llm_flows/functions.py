"""Client-side function call ids: generated when the model gives none, stripped before it sees them.

Runs on: activity side (model-step activity).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from google.genai import types

if TYPE_CHECKING:
    from ...events.event import Event

AF_FUNCTION_CALL_ID_PREFIX = "adk-"
REQUEST_CONFIRMATION_FUNCTION_CALL_NAME = "adk_request_confirmation"
REQUEST_EUC_FUNCTION_CALL_NAME = "adk_request_credential"


def generate_client_function_call_id() -> str:
    return f"{AF_FUNCTION_CALL_ID_PREFIX}{uuid.uuid4()}"


def populate_client_function_call_id(model_response_event: Event) -> None:
    """Give every function call without an id an `adk-` id.

    durable-adk derives them from the event id and the call's position, so a
    retried model step (same event id) names its calls the same way.
    """
    for index, function_call in enumerate(model_response_event.get_function_calls()):
        if not function_call.id:
            if model_response_event.id:
                derived = uuid.uuid5(uuid.NAMESPACE_URL, f"{model_response_event.id}/{index}")
                function_call.id = f"{AF_FUNCTION_CALL_ID_PREFIX}{derived}"
            else:
                function_call.id = generate_client_function_call_id()


def remove_client_function_call_id(content: types.Content | None) -> None:
    """Strip `adk-` ids (ours, not the model's) before the content goes to the model."""
    if not content or not content.parts:
        return
    for part in content.parts:
        if (
            part.function_call
            and part.function_call.id
            and part.function_call.id.startswith(AF_FUNCTION_CALL_ID_PREFIX)
        ):
            part.function_call.id = None
        if (
            part.function_response
            and part.function_response.id
            and part.function_response.id.startswith(AF_FUNCTION_CALL_ID_PREFIX)
        ):
            part.function_response.id = None
