"""Basic request processor: model name and generation config.

Runs on: activity side (model-step activity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

if TYPE_CHECKING:
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest


def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    llm_request.model = agent.model_name
    llm_request.config = (
        agent.generate_content_config.model_copy(deep=True)
        if agent.generate_content_config
        else types.GenerateContentConfig()
    )
    if agent.output_schema and not agent.tools:
        llm_request.set_output_schema(agent.output_schema)
