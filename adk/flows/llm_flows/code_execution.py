"""Code execution: the agent's code executor shapes the request and reads the answer.

Runs on: activity side, at google-adk 2.13's places: the request part after planning
(before output_schema), the response part after planning's (model step). A
BuiltInCodeExecutor declares Gemini's code execution tool: the model runs the code.
Any other executor: the model step takes the first code block of the answer
(`code_block`), and the code-execution activity runs it (`execute`); its result goes
back to the model on the next step.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import TYPE_CHECKING

from google.genai import types

from ..._unimplemented import not_implemented
from ...code_executors.base_code_executor import BaseCodeExecutor
from ...code_executors.built_in_code_executor import BuiltInCodeExecutor
from ...code_executors.code_execution_utils import CodeExecutionInput, CodeExecutionUtils
from ...code_executors.code_executor_context import CodeExecutorContext
from ...events.event_actions import EventActions
from ...planners.built_in_planner import BuiltInPlanner
from ._ownership import is_ours
from .nl_planning import planner_of

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
        if not is_ours(type(executor).process_llm_request):
            llm_request._own_contents()  # an executor of the user's may change them
        executor.process_llm_request(llm_request)
    # (optimize_data_file, the only other request work of 2.13, is refused at construction)
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


def runs_code(agent: LlmAgent) -> BaseCodeExecutor | None:
    """The agent's executor when it runs code itself (not the model's built-in tool)."""
    executor = agent.code_executor
    if isinstance(executor, BaseCodeExecutor) and not isinstance(executor, BuiltInCodeExecutor):
        return executor
    return None


def code_block(
    ctx: InvocationContext, agent: LlmAgent, llm_response: LlmResponse
) -> types.Content | None:
    """The content of the event that shows the code to run (the answer cut after its
    first code block, which becomes an executable code part), or None: no code, or
    this invocation's consecutive failures reached `error_retry_attempts` (the answer
    is then an ordinary model event). With code, the model's answer itself is not
    recorded (`llm_response.content` is cleared): the loop goes on after the result."""
    executor = runs_code(agent)
    if executor is None or llm_response.partial or not llm_response.content:
        return None
    context = CodeExecutorContext(ctx.session.state)
    if context.get_error_count(ctx.invocation_id) >= executor.error_retry_attempts:
        return None
    content, thoughts = _split_thoughts(llm_response.content, signed_only=_rewrites(agent))
    code = CodeExecutionUtils.extract_code_and_truncate_content(
        content, executor.code_block_delimiters
    )
    if not code:
        return None
    if thoughts:  # not code to run, but the model expects its signed reasoning back
        content.parts = thoughts + (content.parts or [])
    llm_response.content = None
    return content


def _rewrites(agent: LlmAgent) -> bool:
    """A planner that rewrites the answer marks its own parts as thoughts: then only a
    thought the model signed counts as the model's reasoning."""
    planner = planner_of(agent)
    return planner is not None and (
        type(planner).process_planning_response is not BuiltInPlanner.process_planning_response
    )


def _split_thoughts(
    content: types.Content, *, signed_only: bool
) -> tuple[types.Content, list[types.Part]]:
    kept: list[types.Part] = []
    thoughts: list[types.Part] = []
    for part in content.parts or []:
        if part.thought and (part.thought_signature or not signed_only):
            thoughts.append(part)
        else:
            kept.append(part)
    if not thoughts:
        return content, []
    return content.model_copy(update={"parts": kept}), thoughts


async def execute(
    ctx: InvocationContext, agent: LlmAgent, code: str
) -> tuple[types.Content, EventActions]:
    """Run `code` with the agent's executor (in a thread, as 2.13); the content and
    actions of the result event. The executor's bookkeeping (results, error count)
    is written into `ctx.session.state`, as 2.13 writes it."""
    executor = runs_code(agent)
    if executor is None:
        raise ValueError(f"Agent {agent.name} has no code executor that runs code itself.")
    context = CodeExecutorContext(ctx.session.state)
    execution_id = None
    if executor.stateful:  # the session's executions share one id: the session's
        execution_id = context.get_execution_id()
        if not execution_id:
            execution_id = ctx.session.id
            context.set_execution_id(execution_id)
    result = await asyncio.to_thread(
        executor.execute_code,
        ctx,
        CodeExecutionInput(
            code=code, input_files=context.get_input_files(), execution_id=execution_id
        ),
    )
    context.update_code_execution_result(ctx.invocation_id, code, result.stdout, result.stderr)
    content = types.Content(
        role="model", parts=[CodeExecutionUtils.build_code_execution_result_part(result)]
    )
    actions = EventActions(state_delta=context.get_state_delta())
    if result.stderr:
        context.increment_error_count(ctx.invocation_id)
    else:
        context.reset_error_count(ctx.invocation_id)
    if result.output_files:
        raise not_implemented(
            f"{type(executor).__name__} returning output files"
            f" ({', '.join(f.name for f in result.output_files)})",
            "artifact services (2.13 saves a code execution's output files as artifacts)",
        )
    return content, actions
