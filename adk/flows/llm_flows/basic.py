"""Basic request processor: model name and generation config.

Runs on: activity side (model-step activity).

Follows google-adk 2.13: the agent's generate_content_config (copied), the
RunConfig's labels merged in, and the output schema as the response schema
when the agent has no tools or its model takes both (Gemini on Vertex AI).
Task-mode agents answer through their finish tool, never a response schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from google.genai import types
from pydantic import BaseModel

from ...agents.run_config import LIVE_CONNECT_FIELDS
from ...utils.model_name_utils import is_gemini_model
from ...utils.variant_utils import GoogleLLMVariant, get_google_llm_variant

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest


def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    # the model instance's name, as 2.13's (`gemini:gemini-2.5-flash` gives gemini-2.5-flash)
    llm_request.model = agent.canonical_model.model
    llm_request.config = (
        agent.generate_content_config.model_copy(deep=True)
        if agent.generate_content_config
        else types.GenerateContentConfig()
    )
    _live_connect_config(ctx, agent, llm_request)
    labels = getattr(ctx.run_config, "labels", None)
    if labels:
        llm_request.config.labels = {**(llm_request.config.labels or {}), **labels}
    if getattr(agent, "mode", None) != "task" and agent.output_schema:
        if not agent.tools or agent_output_schema_and_tools(agent):
            llm_request.set_output_schema(agent.output_schema)


_LIVE_SAMPLING = ("temperature", "top_p", "top_k", "max_output_tokens", "seed", "media_resolution")


def _live_connect_config(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    """The live config google-adk 2.13 fills on every request (live runs read it).

    Nothing here runs live, but the request carries it as ADK's does: the
    agent's sampling settings, then the RunConfig's live fields (every one but
    the audio transcriptions is None here: RunConfig rejects the others).
    """
    live = llm_request.live_connect_config
    if agent.generate_content_config:
        for name in _LIVE_SAMPLING:
            if getattr(live, name) is None:
                setattr(live, name, getattr(agent.generate_content_config, name))
    run_config = ctx.run_config
    if run_config is None:
        return
    modalities = run_config.response_modalities
    live.response_modalities = (
        [types.Modality(m) for m in modalities] if modalities is not None else None
    )
    for name in LIVE_CONNECT_FIELDS:
        value = getattr(run_config, name, None)
        # a copy: the request must not alias the RunConfig's objects (ADK copies too)
        setattr(live, name, value.model_copy(deep=True) if isinstance(value, BaseModel) else value)


def agent_output_schema_and_tools(agent: LlmAgent) -> bool:
    """Whether the agent's model takes a response schema together with tools: a model
    instance's own `capabilities` (google-adk 2.13), else Gemini's rule for its name."""
    from ...agents.llm_agent import LlmAgent
    from ...models.base_llm import BaseLlm

    node: Any = agent
    while node is not None:
        if isinstance(node, LlmAgent) and node.model:
            if isinstance(node.model, BaseLlm):
                return bool(node.model.capabilities.output_schema_and_tools)
            break
        node = node.parent_agent
    return output_schema_and_tools(agent.model_name)


def output_schema_and_tools(model: str | None) -> bool:
    """Whether the model takes a response schema together with tools (Gemini on Vertex AI)."""
    return get_google_llm_variant() is GoogleLLMVariant.VERTEX_AI and is_gemini_model(model)
