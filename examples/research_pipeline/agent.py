"""Research pipeline: SequentialAgent(ParallelAgent(researchers), LoopAgent(writer, critic)).

The researchers run concurrently on their own branches and save their notes to
state (output_key); the writer drafts from the notes; the critic either asks
for another draft or calls exit_loop. Offline, scripted models read the request
(so the run survives worker restarts); with GOOGLE_API_KEY they use Gemini.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent, LoopAgent, ParallelAgent, SequentialAgent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools import exit_loop

ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))


class PipelineModel(BaseLlm):
    """Offline stand-in for each role of the pipeline."""

    model: str = "offline-pipeline-model"
    role: str

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        yield LlmResponse(content=types.Content(role="model", parts=[self._part(llm_request)]))

    def _part(self, request: LlmRequest) -> types.Part:
        instruction = str(request.config.system_instruction or "")
        if self.role.startswith("researcher"):
            topic = self.role.split(":", 1)[1]
            return types.Part(text=f"Notes on {topic}: three key facts about {topic}.")
        if self.role == "writer":
            drafts = instruction.count("DRAFT")
            return types.Part(text=f"DRAFT v{drafts + 1}: a report combining the notes.")
        last = request.contents[-1] if request.contents else None
        if last and any(p.function_response for p in last.parts or []):
            return types.Part(text="Approved.")
        if "v2" in " ".join(p.text or "" for c in request.contents for p in c.parts or []):
            return types.Part.from_function_call(name="exit_loop", args={})
        return types.Part(text="Needs one more pass: add numbers.")


def _model(role: str) -> str | BaseLlm:
    return "gemini-2.5-flash" if ONLINE else PipelineModel(role=role)


market = Agent(
    name="market_researcher",
    model=_model("researcher:market"),
    instruction="Research the market for the topic. Be brief.",
    output_key="market_notes",
)
tech = Agent(
    name="tech_researcher",
    model=_model("researcher:technology"),
    instruction="Research the technology for the topic. Be brief.",
    output_key="tech_notes",
)
research = ParallelAgent(name="research", sub_agents=[market, tech])
writer = Agent(
    name="writer",
    model=_model("writer"),
    instruction=(
        "Write a short report from the notes.\nMarket: {market_notes}\nTech: {tech_notes}\n"
        "Previous draft: {draft?}"
    ),
    output_key="draft",
)
critic = Agent(
    name="critic",
    model=_model("critic"),
    instruction="Review the draft: {draft}. If it is good, call exit_loop; else say what to fix.",
    tools=[exit_loop],
)
refine = LoopAgent(name="refine", sub_agents=[writer, critic], max_iterations=3)
root_agent = SequentialAgent(
    name="research_pipeline",
    description="Researches a topic in parallel, then drafts and refines a report.",
    sub_agents=[research, refine],
)
