"""Few-shot examples as system-instruction text (google.adk.examples.example_util).

Runs on: activity side (ExampleTool edits the request in the model step).
The layout strings are google-adk 2.13's: the model sees exactly its text.
"""

from __future__ import annotations

from typing import Any

from google.genai import types

from .base_example_provider import BaseExampleProvider
from .example import Example

_EXAMPLES_INTRO = (
    "<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and"
    " model responses using the available tools.\n\n"
)
_EXAMPLES_END = "End few-shot\n<EXAMPLES>"
_EXAMPLE_START = "EXAMPLE {}:\nBegin example\n"
_EXAMPLE_END = "End example\n\n"
_USER_PREFIX = "[user]\n"
_MODEL_PREFIX = "[model]\n"
_FUNCTION_PREFIX = "```\n"
_FUNCTION_CALL_PREFIX = "```tool_code\n"
_FUNCTION_RESPONSE_PREFIX = "```tool_outputs\n"
_FENCE_END = "\n```\n"


def _call_text(call: types.FunctionCall, prefix: str) -> str:
    """A call as Python source: name(key='text', key=value)."""
    args = call.args if isinstance(call.args, dict) else {}
    rendered = [f"{k}='{v}'" if isinstance(v, str) else f"{k}={v}" for k, v in args.items()]
    return f"{prefix}{call.name}({', '.join(rendered)}){_FENCE_END}"


def _part_text(part: types.Part, is_gemini: bool) -> str:
    if part.function_call:
        return _call_text(
            part.function_call, _FUNCTION_PREFIX if is_gemini else _FUNCTION_CALL_PREFIX
        )
    if part.function_response:
        prefix = _FUNCTION_PREFIX if is_gemini else _FUNCTION_RESPONSE_PREFIX
        # the response object's attributes, as ADK prints them
        return f"{prefix}{part.function_response.__dict__}{_FENCE_END}"
    if part.text:
        return f"{part.text}\n"
    return ""


def _example_text(number: int, example: Example, is_gemini: bool) -> str:
    text = _EXAMPLE_START.format(number) + _USER_PREFIX
    if example.input and example.input.parts:
        text += "\n".join(p.text for p in example.input.parts if p.text) + "\n"
    previous: str | None = None
    for content in example.output:
        role = _MODEL_PREFIX if content.role == "model" else _USER_PREFIX
        if role != previous:  # one role line for consecutive contents of a role
            text += role
        previous = role
        text += "".join(_part_text(part, is_gemini) for part in content.parts or [])
    return text + _EXAMPLE_END


def convert_examples_to_text(examples: list[Example], model: str | None) -> str:
    """The examples block of the system instruction."""
    # a loose match, as ADK: vendor-hosted ids such as "google.gemini-2.5-flash" are Gemini
    is_gemini = model is None or "gemini-" in model
    body = "".join(_example_text(i + 1, e, is_gemini) for i, e in enumerate(examples))
    return f"{_EXAMPLES_INTRO}{body}{_EXAMPLES_END}"


def build_example_si(examples: Any, query: str, model: str | None) -> str:
    """The block for a list of examples, or for what a provider gives for this query."""
    if isinstance(examples, list):
        return convert_examples_to_text(examples, model)
    if isinstance(examples, BaseExampleProvider):
        return convert_examples_to_text(examples.get_examples(query), model)
    raise ValueError("Invalid example configuration")
