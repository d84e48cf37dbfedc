"""google/adk-python contributing/samples/session_state_agent: when state is persisted.

Each callback writes a key, then reads the session through
callback_context._invocation_context (the context's session and the session
service) and asserts which keys are already persisted: ADK persists a
callback's delta with the next event. The second turn's before_agent
callback ends the agent with ModelContent.
"""

from typing import Optional

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import Agent
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types

TURNS = ["hello", "hello again"]


async def assert_session_values(
    ctx: CallbackContext,
    title: str,
    *,
    keys_in_ctx_session: Optional[list[str]] = None,
    keys_in_service_session: Optional[list[str]] = None,
    keys_not_in_service_session: Optional[list[str]] = None,
):
    session_in_ctx = ctx._invocation_context.session
    session_in_service = await ctx._invocation_context.session_service.get_session(
        app_name=session_in_ctx.app_name,
        user_id=session_in_ctx.user_id,
        session_id=session_in_ctx.id,
    )
    assert session_in_service is not None

    for key in keys_in_ctx_session or []:
        assert key in session_in_ctx.state, (title, "in ctx", key)
    for key in keys_in_service_session or []:
        assert key in session_in_service.state, (title, "in service", key)
    for key in keys_not_in_service_session or []:
        assert key not in session_in_service.state, (title, "not in service", key)


async def before_agent_callback(
    callback_context: CallbackContext,
) -> Optional[types.Content]:
    if "before_agent_callback_state_key" in callback_context.state:
        return types.ModelContent("Sorry, I can only reply once.")

    callback_context.state["before_agent_callback_state_key"] = "before_agent_callback_state_value"

    await assert_session_values(
        callback_context,
        "In before_agent_callback",
        keys_in_ctx_session=["before_agent_callback_state_key"],
        keys_in_service_session=[],
        keys_not_in_service_session=["before_agent_callback_state_key"],
    )


async def before_model_callback(callback_context: CallbackContext, llm_request: LlmRequest):
    callback_context.state["before_model_callback_state_key"] = "before_model_callback_state_value"

    await assert_session_values(
        callback_context,
        "In before_model_callback",
        keys_in_ctx_session=[
            "before_agent_callback_state_key",
            "before_model_callback_state_key",
        ],
        keys_in_service_session=["before_agent_callback_state_key"],
        keys_not_in_service_session=["before_model_callback_state_key"],
    )


async def after_model_callback(callback_context: CallbackContext, llm_response: LlmResponse):
    callback_context.state["after_model_callback_state_key"] = "after_model_callback_state_value"

    await assert_session_values(
        callback_context,
        "In after_model_callback",
        keys_in_ctx_session=[
            "before_agent_callback_state_key",
            "before_model_callback_state_key",
            "after_model_callback_state_key",
        ],
        keys_in_service_session=[
            "before_agent_callback_state_key",
        ],
        keys_not_in_service_session=[
            "before_model_callback_state_key",
            "after_model_callback_state_key",
        ],
    )


async def after_agent_callback(callback_context: CallbackContext):
    callback_context.state["after_agent_callback_state_key"] = "after_agent_callback_state_value"

    await assert_session_values(
        callback_context,
        "In after_agent_callback",
        keys_in_ctx_session=[
            "before_agent_callback_state_key",
            "before_model_callback_state_key",
            "after_model_callback_state_key",
            "after_agent_callback_state_key",
        ],
        keys_in_service_session=[
            "before_agent_callback_state_key",
            "before_model_callback_state_key",
            "after_model_callback_state_key",
        ],
        keys_not_in_service_session=[
            "after_agent_callback_state_key",
        ],
    )


def build(scripted):
    return Agent(
        name="root_agent",
        description="a verification agent.",
        instruction=(
            "Log all users query with `log_query` tool. Must always remind user you"
            " cannot answer second query because your setup."
        ),
        model=scripted("Logged. I cannot answer a second query.", model="gemini-2.0-flash-001"),
        before_agent_callback=before_agent_callback,
        before_model_callback=before_model_callback,
        after_model_callback=after_model_callback,
        after_agent_callback=after_agent_callback,
    )
