"""Reports: a tool writes a report as an artifact; the agent reads it back with load_artifacts.

`write_report` saves `report.md` (a new version each time) and the event records only
its name and version; `load_artifacts` puts the file into the model's next request,
never into the session or the workflow's history. Run a worker for it and read the
artifact back as an operator would:

    python -m worker examples/reports
    python -m client run --app reports --session r1 "Write a report on solar panels"
    python -m client artifacts r1 report.md --app reports
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools import ToolContext, load_artifacts


async def write_report(topic: str, tool_context: ToolContext) -> dict:
    """Writes a short report on a topic and saves it as report.md.

    Args:
      topic: What the report is about.
    """
    text = f"# {topic.title()}\n\nThree findings on {topic}: cheap, quiet, and growing.\n"
    version = await tool_context.save_artifact("report.md", types.Part.from_text(text=text))
    return {"saved": "report.md", "version": version}


class OfflineReportModel(BaseLlm):
    """Offline stand-in: writes the report, loads it, then quotes its first finding."""

    model: str = "offline-report-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        texts = [p.text or "" for p in last.parts or []]
        answered = next(
            (p.function_response for p in last.parts or [] if p.function_response), None
        )
        if texts and texts[0].startswith("Artifact report.md is:"):  # load_artifacts' content
            finding = texts[-1].strip().splitlines()[-1]
            part = types.Part(text=f"The report is saved as report.md. It says: {finding}")
        elif answered is not None and answered.name == "write_report":
            part = types.Part.from_function_call(
                name="load_artifacts", args={"artifact_names": ["report.md"]}
            )
        else:
            topic = " ".join(texts).lower().removeprefix("write a report on").strip() or "it"
            part = types.Part.from_function_call(name="write_report", args={"topic": topic})
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))
root_agent = Agent(
    name="report_writer",
    model="gemini-2.5-flash" if ONLINE else OfflineReportModel(),
    instruction=(
        "You write reports with write_report, then read them back with load_artifacts"
        " before you tell the user what they say."
    ),
    tools=[write_report, load_artifacts],
)
