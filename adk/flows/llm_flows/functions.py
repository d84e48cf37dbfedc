"""Function calls and responses: client-side call ids, and the function response event.

Runs on: both sides, pure. The model-step activity gives calls their `adk-` ids
(generated when the model gives none, stripped before the model sees them);
the workflow and the tool activity build a function response event with the
same function, so both build the very same event.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from google.genai import types

from ...events.event import Event, NodeInfo
from ...events.event_actions import EventActions
from ...platform import uuid as platform_uuid

AF_FUNCTION_CALL_ID_PREFIX = "adk-"
REQUEST_CONFIRMATION_FUNCTION_CALL_NAME = "adk_request_confirmation"
REQUEST_EUC_FUNCTION_CALL_NAME = "adk_request_credential"


def generate_client_function_call_id() -> str:
    return AF_FUNCTION_CALL_ID_PREFIX + platform_uuid.new_uuid()


def populate_client_function_call_id(model_response_event: Event) -> None:
    """Give every function call without an id an `adk-` id.

    durable-adk derives them from the event id and the call's position, so a
    retried or replayed model step (same event id) names its calls the same
    way; the derived uuid carries version 4's bits, shaped like google-adk's
    `adk-` + uuid4.
    """
    for index, function_call in enumerate(model_response_event.get_function_calls()):
        if not function_call.id:
            if model_response_event.id:
                seed = uuid.uuid5(uuid.NAMESPACE_URL, f"{model_response_event.id}/{index}")
                derived = uuid.UUID(bytes=seed.bytes, version=4)
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


def deep_merge_dicts(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """Recursive merge: nested dicts merge, any other value from `update` wins."""
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge_dicts(merged[key], value)
        else:
            merged[key] = value
    return merged


def merge_actions(actions: Sequence[EventActions]) -> EventActions:
    """The actions of parallel calls, merged in call order (ADK's merge of parallel responses)."""
    data: dict[str, Any] = {}
    for action in actions:
        data = deep_merge_dicts(data, action.model_dump(exclude_none=True, by_alias=True))
    return EventActions.model_validate(data)


def own_text(event: Event) -> str:
    """The text an event's author said (thoughts aside), as output_key saves it."""
    parts = event.content.parts if event.content else None
    return "".join(p.text for p in parts or [] if p.text and not p.thought)


def build_function_response_event(
    *,
    event_id: str,
    timestamp: float,
    invocation_id: str,
    author: str,
    branch: str | None,
    responses: Sequence[tuple[types.FunctionCall, dict[str, Any], EventActions]],
    display_texts: Mapping[str, str] | None = None,
    node_path: str = "",
    media: Mapping[str, list[types.FunctionResponsePart]] | None = None,
) -> Event:
    """One event holding the responses of a model event's calls, in call order.

    `display_texts` (call id -> text): a text part right after that call's
    response (google-adk 2.13 adds one for an AgentTool with skip_summarization).
    `media` (call id -> parts): the media a tool returned (`extract_media`), carried
    in its function response as 2.13 carries it.
    """
    parts: list[types.Part] = []
    for call, response, _ in responses:
        carried = media.get(call.id or "") if media else None
        parts.append(
            types.Part(
                function_response=types.FunctionResponse(
                    id=call.id, name=call.name, response=response, parts=carried
                )
            )
        )
        display = display_texts.get(call.id or "") if display_texts else None
        if display is not None:
            parts.append(types.Part(text=display))
    return Event(
        id=event_id,
        timestamp=timestamp,
        invocation_id=invocation_id,
        author=author,
        branch=branch,
        content=types.Content(role="user", parts=parts),
        actions=merge_actions([actions for _, _, actions in responses]),
        node_info=NodeInfo(path=node_path),
    )


_MEDIA_DEPTH = 1
"""How deep into a tool's containers media is looked for (2.13's bound: a result's
own entries, and the entries of a container among them)."""


def as_function_response_part(value: object) -> types.FunctionResponsePart | None:
    """A tool-returned Part carrying media (bytes or a uri, with a mime type) as a
    function response part; None for anything else."""
    if not isinstance(value, types.Part):
        return None
    blob = value.inline_data
    if blob is not None and blob.data is not None and blob.mime_type:
        return types.FunctionResponsePart.from_bytes(data=blob.data, mime_type=blob.mime_type)
    file = value.file_data
    if file is not None and file.file_uri and file.mime_type:
        return types.FunctionResponsePart.from_uri(file_uri=file.file_uri, mime_type=file.mime_type)
    return None


def extract_media(
    result: object, depth: int = 0
) -> tuple[object, list[types.FunctionResponsePart] | None]:
    """google-adk 2.13: media a tool returned (a Part, or Parts among a dict's or a
    list's entries, one container deep) moves into function response parts; returns
    what is left of the result (`{}` when nothing is) and the parts (None: no media,
    the result unchanged)."""
    single = as_function_response_part(result)
    if single is not None:
        return {}, [single]
    if not isinstance(result, (dict, list, tuple)):
        return result, None
    found: list[types.FunctionResponsePart] = []

    def keep(value: object) -> tuple[bool, object]:
        part = as_function_response_part(value)
        if part is not None:
            found.append(part)
            return False, None
        if depth >= _MEDIA_DEPTH or not isinstance(value, (dict, list, tuple)):
            return True, value
        rest, nested = extract_media(value, depth + 1)
        if not nested:
            return True, value
        found.extend(nested)
        return bool(rest), rest

    remaining: object
    if isinstance(result, dict):
        kept = {key: keep(value) for key, value in result.items()}
        remaining = {key: value for key, (stays, value) in kept.items() if stays}
    else:
        remaining = [value for stays, value in map(keep, result) if stays]
    if not found:
        return result, None
    return remaining or {}, found
