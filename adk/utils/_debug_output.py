"""The console lines of `Runner.run_debug`: google-adk 2.13's format.

Runs on: process side (the caller's console).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..events.event import Event

_ARGS_MAX_LEN = 50
_RESPONSE_MAX_LEN = 100
_CODE_OUTPUT_MAX_LEN = 100


def _truncate(text: str, max_len: int) -> str:
    return text[:max_len] + "..." if len(text) > max_len else text


def _detail(part: object, author: str) -> str | None:
    """A non-text part's line (verbose only), or None for a part it does not show."""
    call = getattr(part, "function_call", None)
    if call:
        return f"{author} > [Calling tool: {call.name}({_truncate(str(call.args), _ARGS_MAX_LEN)})]"
    response = getattr(part, "function_response", None)
    if response:
        shown = _truncate(str(response.response), _RESPONSE_MAX_LEN)
        return f"{author} > [Tool result: {shown}]"
    code = getattr(part, "executable_code", None)
    if code:
        return f"{author} > [Executing {code.language or 'code'} code...]"
    result = getattr(part, "code_execution_result", None)
    if result:
        output = _truncate(str(result.output or "result"), _CODE_OUTPUT_MAX_LEN)
        return f"{author} > [Code output: {output}]"
    data = getattr(part, "inline_data", None)
    if data:
        return f"{author} > [Inline data: {data.mime_type or 'data'}]"
    file = getattr(part, "file_data", None)
    if file:
        return f"{author} > [File: {file.file_uri or 'file'}]"
    return None


def print_event(event: Event, *, verbose: bool = False) -> None:
    """Print the event's texts as `author > text` (consecutive text parts joined); with
    `verbose`, also its thoughts, tool calls and results, code and files, one line each."""
    if not event.content or not event.content.parts:
        return
    texts: list[str] = []

    def flush() -> None:
        if texts:
            print(f"{event.author} > {''.join(texts)}")
            texts.clear()

    for part in event.content.parts:
        if part.thought and not verbose:
            continue
        if part.text:
            texts.append(part.text)
            continue
        flush()
        if verbose and (line := _detail(part, event.author)) is not None:
            print(line)
    flush()
