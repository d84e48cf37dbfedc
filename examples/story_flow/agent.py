"""Story flow: ADK's custom-agent example (StoryFlowAgent), durable.

A BaseAgent subclass orchestrates: a story generator, a LoopAgent (critic,
reviser), a SequentialAgent (grammar check, tone check), then, if the tone is
negative, the generator again. Its `_run_async_impl` runs in the workflow and
is replayed after a crash, so it only reads state and runs sub-agents; every
model call is an activity and every sub-agent a child workflow. Offline,
scripted models read the request (so the run survives worker restarts); with
GOOGLE_API_KEY they use Gemini.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk.agents import BaseAgent, InvocationContext, LlmAgent, LoopAgent, SequentialAgent
from adk.events import Event
from adk.models import BaseLlm, LlmRequest, LlmResponse

logger = logging.getLogger(__name__)
ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))


class StoryFlowAgent(BaseAgent):
    """Generates a story, refines it, checks it, and regenerates it if its tone is negative."""

    story_generator: LlmAgent
    loop_agent: LoopAgent
    sequential_agent: SequentialAgent

    def __init__(
        self,
        name: str,
        story_generator: LlmAgent,
        critic: LlmAgent,
        reviser: LlmAgent,
        grammar_check: LlmAgent,
        tone_check: LlmAgent,
    ) -> None:
        loop_agent = LoopAgent(
            name="CriticReviserLoop", sub_agents=[critic, reviser], max_iterations=2
        )
        sequential_agent = SequentialAgent(
            name="PostProcessing", sub_agents=[grammar_check, tone_check]
        )
        super().__init__(
            name=name,
            story_generator=story_generator,
            loop_agent=loop_agent,
            sequential_agent=sequential_agent,
            # every agent it runs is in the tree: each runs as a child workflow
            sub_agents=[story_generator, loop_agent, sequential_agent],
        )

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        # Deterministic orchestration only: read state, run sub-agents, yield events.
        # No clock, randomness, files or network here (tools and sub-agents do I/O).
        logger.info("[%s] generating the story", self.name)  # logging is fine
        async for event in self.story_generator.run_async(ctx):
            yield event
        if not ctx.session.state.get("current_story"):
            return  # nothing to refine
        async for event in self.loop_agent.run_async(ctx):
            yield event
        async for event in self.sequential_agent.run_async(ctx):
            yield event
        if ctx.session.state.get("tone_check_result") == "negative":
            logger.info("[%s] tone is negative: regenerating", self.name)
            async for event in self.story_generator.run_async(ctx):
                yield event


class StoryModel(BaseLlm):
    """Offline stand-in for each role: answers from what the request holds."""

    model: str = "offline-story-model"
    role: str

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        instruction = str(llm_request.config.system_instruction or "")
        story = instruction.rsplit("STORY:", 1)[-1].split("\n\n")[0].strip().rstrip(".")
        said = " ".join(p.text or "" for c in llm_request.contents for p in c.parts or [])
        text = {
            "generator": "A sunny tale: the kitten finds a friend."
            if "negative" in said
            else "A storm scares a little kitten.",
            "critic": "Say what the kitten does next.",
            "reviser": f"{story}, and it hides.",
            "grammar": "Grammar is good!",
            "tone": "negative" if "storm" in story else "positive",
        }[self.role]
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


def _model(role: str) -> str | BaseLlm:
    return "gemini-2.5-flash" if ONLINE else StoryModel(role=role)


root_agent = StoryFlowAgent(
    name="story_flow",
    story_generator=LlmAgent(
        name="StoryGenerator",
        model=_model("generator"),
        instruction="Write a short story (about 100 words) on the topic the user gives.",
        output_key="current_story",
    ),
    critic=LlmAgent(
        name="Critic",
        model=_model("critic"),
        instruction="Criticise this story in 1-2 sentences.\nSTORY: {current_story}",
        output_key="criticism",
    ),
    reviser=LlmAgent(
        name="Reviser",
        model=_model("reviser"),
        instruction="Revise the story using the criticism: {criticism}\nSTORY: {current_story}",
        output_key="current_story",
    ),
    grammar_check=LlmAgent(
        name="GrammarCheck",
        model=_model("grammar"),
        instruction="List grammar corrections, or say 'Grammar is good!'.\nSTORY: {current_story}",
        output_key="grammar_suggestions",
    ),
    tone_check=LlmAgent(
        name="ToneCheck",
        model=_model("tone"),
        instruction="Answer one word: positive, negative or neutral.\nSTORY: {current_story}",
        output_key="tone_check_result",
    ),
)
