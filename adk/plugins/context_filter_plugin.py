"""ContextFilterPlugin: keeps a model request's contents to the last few invocations.

Runs on: activity side (its before_model hook runs in the model step), as google-adk 2.13's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from google.genai import types

from .base_plugin import BasePlugin

logger = logging.getLogger("google_adk." + __name__)


def _paired_split(contents: Sequence[types.Content], split: int) -> int:
    """`split`, moved earlier until no kept function response has lost its call."""
    wanted: set[str] = set()
    for index in range(len(contents) - 1, -1, -1):
        for part in reversed(contents[index].parts or []):
            if part.function_response and part.function_response.id:
                wanted.add(part.function_response.id)
            if part.function_call and part.function_call.id:
                wanted.discard(part.function_call.id)
        if index <= split and not wanted:
            return index
    return 0


def _from_a_person(content: types.Content) -> bool:
    """A user turn that is not a tool's output (function responses are role user too)."""
    return content.role == "user" and not any(
        part.function_response is not None for part in content.parts or []
    )


def _invocation_starts(contents: Sequence[types.Content]) -> list[int]:
    """Where each invocation begins: the first of consecutive user turns."""
    starts: list[int] = []
    previous = False
    for index, content in enumerate(contents):
        current = _from_a_person(content)
        if current and not previous:
            starts.append(index)
        previous = current
    return starts


class ContextFilterPlugin(BasePlugin):
    """Drops the oldest invocations from each request (and/or applies a custom filter)."""

    def __init__(
        self,
        num_invocations_to_keep: int | None = None,
        custom_filter: Callable[[list[types.Content]], list[types.Content]] | None = None,
        name: str = "context_filter_plugin",
        remove_amount: int = 1,
    ) -> None:
        if remove_amount < 1:
            raise ValueError("remove_amount must be at least 1")
        super().__init__(name)
        self._num_invocations_to_keep = num_invocations_to_keep
        self._custom_filter = custom_filter
        self._remove_amount = remove_amount

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        try:
            if self._custom_filter:  # the filter is the user's: it may change contents
                llm_request._own_contents()
            contents: list[types.Content] = llm_request.contents
            keep = self._num_invocations_to_keep
            if keep is not None and keep > 0:
                starts = _invocation_starts(contents)
                if len(starts) >= keep + self._remove_amount:
                    contents = contents[_paired_split(contents, starts[-keep]) :]
            if self._custom_filter:
                contents = self._custom_filter(contents)
            llm_request.contents = contents
        except Exception:  # as google.adk: a failed filter leaves the request as it was
            logger.exception("Failed to reduce context for request")
        return None
