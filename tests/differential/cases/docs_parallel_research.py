"""ADK docs, agents/workflow-agents/parallel-agents: parallel research, then a merger.

Three researchers in a ParallelAgent each store a result with output_key; a
synthesis agent templates all three. The docs' researchers use google_search,
which is not claimed here: they answer from the model alone.
"""

import asyncio

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent

TURNS = ["Research sustainable technology."]
BRANCHES_INTERLEAVE = True

_DELAY = {"RenewableEnergyResearcher": 0.0, "EVResearcher": 0.6, "CarbonCaptureResearcher": 1.2}


async def _finish_in_order(callback_context, llm_request):
    # Not in the docs. The branches' events reach the session as they finish, and
    # the merger reads them in that order; ADK's instant scripted branches finish in
    # sub_agents order, ours as their activities complete: staggered, both agree.
    await asyncio.sleep(_DELAY[callback_context.agent_name])


def build(scripted):
    GEMINI_MODEL = "gemini-2.0-flash"
    researcher_agent_1 = LlmAgent(
        name="RenewableEnergyResearcher",
        model=scripted("Solar got cheaper.", model=GEMINI_MODEL),
        instruction="""You are an AI Research Assistant specializing in energy.
Research the latest advancements in 'renewable energy sources'.
Summarize your key findings concisely (1-2 sentences).
Output *only* the summary.
""",
        description="Researches renewable energy sources.",
        output_key="renewable_energy_result",
        before_model_callback=_finish_in_order,
    )
    researcher_agent_2 = LlmAgent(
        name="EVResearcher",
        model=scripted("Batteries last longer.", model=GEMINI_MODEL),
        instruction="""You are an AI Research Assistant specializing in transportation.
Research the latest developments in 'electric vehicle technology'.
Summarize your key findings concisely (1-2 sentences).
Output *only* the summary.
""",
        description="Researches electric vehicle technology.",
        output_key="ev_technology_result",
        before_model_callback=_finish_in_order,
    )
    researcher_agent_3 = LlmAgent(
        name="CarbonCaptureResearcher",
        model=scripted("Capture costs fell.", model=GEMINI_MODEL),
        instruction="""You are an AI Research Assistant specializing in climate solutions.
Research the current state of 'carbon capture methods'.
Summarize your key findings concisely (1-2 sentences).
Output *only* the summary.
""",
        description="Researches carbon capture methods.",
        output_key="carbon_capture_result",
        before_model_callback=_finish_in_order,
    )
    parallel_research_agent = ParallelAgent(
        name="ParallelWebResearchAgent",
        sub_agents=[researcher_agent_1, researcher_agent_2, researcher_agent_3],
        description="Runs multiple research agents in parallel to gather information.",
    )
    merger_agent = LlmAgent(
        name="SynthesisAgent",
        model=scripted("## Summary\nAll three improved.", model=GEMINI_MODEL),
        instruction="""You are an AI Assistant responsible for combining research findings into a structured report.

**Input Summaries:**

*   **Renewable Energy:**
    {renewable_energy_result}

*   **Electric Vehicles:**
    {ev_technology_result}

*   **Carbon Capture:**
    {carbon_capture_result}

Output *only* the structured report following this format.
""",
        description="Combines research findings from parallel agents into a structured, cited report, strictly grounded on provided inputs.",
    )
    return SequentialAgent(
        name="ResearchAndSynthesisPipeline",
        sub_agents=[parallel_research_agent, merger_agent],
        description="Coordinates parallel research and synthesizes the results.",
    )
