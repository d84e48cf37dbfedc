"""MockModel: a scripted model for tests and offline demos.

Runs on: activity side (worker process). Which reply it gives depends on where
the invocation is (how many model turns the request already holds), not on a
counter in memory, so a restarted worker continues the script where it was.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, Union

from google.genai import types
from pydantic import Field, PrivateAttr

from ..models._errors import PermanentModelError
from ..models.base_llm import BaseLlm
from ..models.llm_request import LlmRequest
from ..models.llm_response import LlmResponse

ScriptItem = Union[
    str, types.Part, list[types.Part], types.Content, LlmResponse, Callable[[LlmRequest], Any]
]


class ScriptExhaustedError(PermanentModelError):
    """The model was asked for more replies than its script has."""


class MockModel(BaseLlm):
    """Replies from a script: reply i answers the request holding i model turns.

    Items: text, a Part, a list of Parts, a Content, an LlmResponse, or a
    callable taking the LlmRequest and returning any of those (like pydantic-ai's
    FunctionModel). `requests` records what the model saw (in this process), unless
    `keep_requests` is False (long runs: each request holds the whole conversation).
    """

    model: str = "mock-model"
    responses: list[Any] = Field(default_factory=list)
    keep_requests: bool = True
    _requests: list[LlmRequest] = PrivateAttr(default_factory=list)

    @classmethod
    def create(
        cls, responses: list[Any], model: str = "mock-model", *, keep_requests: bool = True
    ) -> MockModel:
        return cls(model=model, responses=responses, keep_requests=keep_requests)

    @property
    def requests(self) -> list[LlmRequest]:
        return self._requests

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        if self.keep_requests:
            self._requests.append(llm_request)  # built per step and not reused: no copy needed
        turn = sum(1 for content in llm_request.contents if content.role == "model")
        if turn >= len(self.responses):
            raise ScriptExhaustedError(
                f"MockModel {self.model!r} has {len(self.responses)} scripted replies, but the"
                f" request already holds {turn} model turns (reply #{turn + 1} asked for). Add"
                " replies to the script, or check that the agent is not looping."
            )
        yield to_llm_response(self.responses[turn], llm_request)


def to_llm_response(item: Any, llm_request: LlmRequest) -> LlmResponse:
    """Turn one script item into an LlmResponse."""
    if callable(item) and not isinstance(item, (types.Part, types.Content, LlmResponse)):
        llm_request._own_contents()  # the script's function may change them
        return to_llm_response(item(llm_request), llm_request)
    if isinstance(item, LlmResponse):
        return item
    if isinstance(item, types.Content):
        return LlmResponse(content=item)
    if isinstance(item, str):
        item = types.Part(text=item)
    if isinstance(item, types.Part):
        item = [item]
    if isinstance(item, list) and all(isinstance(p, types.Part) for p in item):
        return LlmResponse(content=types.Content(role="model", parts=item))
    raise TypeError(f"MockModel cannot reply with {type(item).__name__}: {item!r}")
