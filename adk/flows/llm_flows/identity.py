"""Identity request processor: tells the model its name and description.

Runs on: activity side (model-step activity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest


def identity_instruction(agent: LlmAgent) -> str:
    text = f'You are an agent. Your internal name is "{agent.name}".'
    if agent.description:
        text += f' The description about you is "{agent.description}".'
    return text


def process(agent: LlmAgent, llm_request: LlmRequest) -> None:
    # google-adk 2.13: a single-turn agent (run as a tool) is not told its identity
    if getattr(agent, "mode", None) != "single_turn":
        llm_request.append_instructions([identity_instruction(agent)])
