"""Code execution: the agent's code executor shapes the request and reads the answer.

Runs on: activity side (model step), at google-adk 2.13's places: the request part
after planning (before output_schema), the response part after planning's.
BuiltInCodeExecutor only: the model runs the code (Gemini's code execution tool);
an agent given another executor is refused when it is built.
"""

from __future__ import annotations

import datetime
import time
from typing import TYPE_CHECKING

from google.genai import types

from ...code_executors.base_code_executor import BaseCodeExecutor
from ...code_executors.built_in_code_executor import BuiltInCodeExecutor
from ...code_executors.code_execution_utils import CodeExecutionUtils
from ...events.event_actions import EventActions

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest
    from ...models.llm_response import LlmResponse


def process_request(agent: LlmAgent, llm_request: LlmRequest) -> None:
    executor = agent.code_executor
    if not isinstance(executor, BaseCodeExecutor):
        return
    if isinstance(executor, BuiltInCodeExecutor):
        executor.process_llm_request(llm_request)
    # earlier code and results go back as text the model can read
    delimiters = executor.code_block_delimiters[0] if executor.code_block_delimiters else ("", "")
    for index, content in enumerate(llm_request.contents):
        last = content.parts[-1] if content.parts else None
        if last and (last.executable_code or last.code_execution_result):
            CodeExecutionUtils.convert_code_execution_parts(
                llm_request._own_content(index), delimiters, executor.execution_result_delimiters
            )


async def save_generated_images(
    ctx: InvocationContext, agent: LlmAgent, llm_response: LlmResponse
) -> dict[str, int]:
    """For BuiltInCodeExecutor, the images the model's code drew, saved as artifacts and
    replaced in the response by 2.13's text naming each; their artifact_delta (for the
    event process_response makes). Without an artifact service: 2.13's ValueError."""
    if not isinstance(agent.code_executor, BuiltInCodeExecutor):
        return {}
    if llm_response.partial or not llm_response.content:
        return {}
    saved: dict[str, int] = {}
    for part in llm_response.content.parts or []:
        inline = part.inline_data
        if not (inline and (inline.mime_type or "").startswith("image/")):
            continue
        if ctx.artifact_service is None:
            raise ValueError("Artifact service is not initialized.")
        name = inline.display_name
        if not name:  # 2.13: the local time, and the MIME subtype as the extension
            stamp = datetime.datetime.fromtimestamp(time.time()).astimezone()
            name = f"{stamp:%Y%m%d_%H%M%S}.{(inline.mime_type or 'image').split('/')[-1]}"
        if not isinstance(inline.data, bytes):
            raise TypeError("Generated image artifact data must be bytes.")
        saved[name] = await ctx.artifact_service.save_artifact(
            app_name=ctx.app_name,
            user_id=ctx.user_id,
            session_id=ctx.session.id,
            filename=name,
            artifact=types.Part.from_bytes(
                data=inline.data, mime_type=inline.mime_type or "application/octet-stream"
            ),
        )
        part.inline_data = None
        part.text = f"Saved as artifact: {name}. "
    return saved


def process_response(agent: LlmAgent, llm_response: LlmResponse) -> EventActions | None:
    """For BuiltInCodeExecutor, the actions of the event google-adk 2.13 records before
    the model's (its artifact_delta: see save_generated_images, which runs first)."""
    if not isinstance(agent.code_executor, BuiltInCodeExecutor):
        return None
    if llm_response.partial or not llm_response.content:
        return None
    for part in llm_response.content.parts or []:
        inline = part.inline_data
        if inline and (inline.mime_type or "").startswith("image/"):
            raise ValueError("Artifact service is not initialized.")
    return EventActions()
