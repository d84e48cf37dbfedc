"""ADK docs, agents/custom-agents: the StoryFlowAgent.

A BaseAgent subclass whose _run_async_impl runs a story generator, a LoopAgent
(critic, reviser) and a SequentialAgent (grammar, tone), then branches on the
tone in state: a negative tone regenerates the story. Two turns: the first
regenerates (tone negative), the second does not (tone positive); the first
stops early when the story is empty (the docs' check).
"""

import logging
from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent, LoopAgent, SequentialAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from typing_extensions import override

logger = logging.getLogger(__name__)

TURNS = ["a brave kitten", "a lonely robot"]
INITIAL_STATE = {"topic": "a brave kitten"}


class StoryFlowAgent(BaseAgent):
    """Custom agent for a story generation and refinement workflow."""

    story_generator: LlmAgent
    critic: LlmAgent
    reviser: LlmAgent
    grammar_check: LlmAgent
    tone_check: LlmAgent

    loop_agent: LoopAgent
    sequential_agent: SequentialAgent

    model_config = {"arbitrary_types_allowed": True}

    def __init__(
        self,
        name: str,
        story_generator: LlmAgent,
        critic: LlmAgent,
        reviser: LlmAgent,
        grammar_check: LlmAgent,
        tone_check: LlmAgent,
    ):
        loop_agent = LoopAgent(
            name="CriticReviserLoop", sub_agents=[critic, reviser], max_iterations=2
        )
        sequential_agent = SequentialAgent(
            name="PostProcessing", sub_agents=[grammar_check, tone_check]
        )
        sub_agents_list = [story_generator, loop_agent, sequential_agent]
        super().__init__(
            name=name,
            story_generator=story_generator,
            critic=critic,
            reviser=reviser,
            grammar_check=grammar_check,
            tone_check=tone_check,
            loop_agent=loop_agent,
            sequential_agent=sequential_agent,
            sub_agents=sub_agents_list,
        )

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        logger.info(f"[{self.name}] Starting story generation workflow.")
        async for event in self.story_generator.run_async(ctx):
            logger.info(f"[{self.name}] Event from StoryGenerator: {event.id}")
            yield event

        if "current_story" not in ctx.session.state or not ctx.session.state["current_story"]:
            logger.error(f"[{self.name}] Failed to generate initial story. Aborting workflow.")
            return

        async for event in self.loop_agent.run_async(ctx):
            yield event

        async for event in self.sequential_agent.run_async(ctx):
            yield event

        tone_check_result = ctx.session.state.get("tone_check_result")
        if tone_check_result == "negative":
            async for event in self.story_generator.run_async(ctx):
                yield event
        logger.info(f"[{self.name}] Workflow finished.")


def build(scripted):
    story_generator = LlmAgent(
        name="StoryGenerator",
        model=scripted(
            "Kitten faces a storm.",
            "Kitten finds a friend.",
            "Robot waits alone.",
            model="gemini-2.0-flash",
        ),
        instruction="""You are a story writer. Write a short story (around 100 words) about a cat,
based on the topic provided in session state with key 'topic'""",
        input_schema=None,
        output_key="current_story",
    )
    critic = LlmAgent(
        name="Critic",
        model=scripted(
            "More thunder.", "Fine now.", "More beeps.", "OK.", model="gemini-2.0-flash"
        ),
        instruction="""You are a story critic. Review the story provided in
session state with key 'current_story'. Provide 1-2 sentences of constructive criticism
on how to improve it. Focus on plot or character.""",
        input_schema=None,
        output_key="criticism",
    )
    reviser = LlmAgent(
        name="Reviser",
        model=scripted(
            "Kitten faces a loud storm.",
            "Kitten faces a loud storm bravely.",
            "Robot beeps, waiting.",
            "Robot beeps, waiting, hopeful.",
            model="gemini-2.0-flash",
        ),
        instruction="""You are a story reviser. Revise the story provided in
session state with key 'current_story', based on the criticism in
session state with key 'criticism'. Output only the revised story.""",
        input_schema=None,
        output_key="current_story",
    )
    grammar_check = LlmAgent(
        name="GrammarCheck",
        model=scripted("Grammar is fine.", "Add a comma.", model="gemini-2.0-flash"),
        instruction="""You are a grammar checker. Check the grammar of the story
provided in session state with key 'current_story'. Output only the suggested
corrections as a list, or output 'Grammar is good!' if there are no errors.""",
        input_schema=None,
        output_key="grammar_suggestions",
    )
    tone_check = LlmAgent(
        name="ToneCheck",
        model=scripted("negative", "positive", model="gemini-2.0-flash"),
        instruction="""You are a tone analyzer. Analyze the tone of the story
provided in session state with key 'current_story'. Output only one word: 'positive' if
the tone is generally positive, 'negative' if the tone is generally negative, or 'neutral'
otherwise.""",
        input_schema=None,
        output_key="tone_check_result",
    )
    return StoryFlowAgent(
        name="StoryFlowAgent",
        story_generator=story_generator,
        critic=critic,
        reviser=reviser,
        grammar_check=grammar_check,
        tone_check=tone_check,
    )
