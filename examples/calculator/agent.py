"""Calculator: Gemini runs the code it writes (BuiltInCodeExecutor), and thinks first
(BuiltInPlanner), served durably (`python -m worker examples/calculator`).

BuiltInCodeExecutor declares Gemini's code execution tool, as google-adk 2.13 does:
the model writes Python, Google runs it, and the model's event keeps the
`executable_code` and `code_execution_result` parts (2.13's empty code-executor event
comes before it). BuiltInPlanner sends its thinking config with every request of the
agent; with `include_thoughts=True` the model's thoughts come back as thought parts.
Both happen inside the model step's activity (`model … · planner BuiltInPlanner · code
BuiltInCodeExecutor` in the Web UI): no code runs in the worker.

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) it uses Gemini;
otherwise an offline model (named like a Gemini model, since the executor needs one)
that answers with a thought, the code, its result and the answer, as Gemini does.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.code_executors import BuiltInCodeExecutor
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.planners import BuiltInPlanner

CODE = "total = sum(n * n for n in range(1, 11))\nprint(total)\n"


class OfflineCodeModel(BaseLlm):
    """Offline stand-in for Gemini with code execution: one answer, four parts."""

    model: str = "gemini-offline-scripted"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        parts = [
            types.Part(text="I will add the squares with a short program.", thought=True),
            types.Part(
                executable_code=types.ExecutableCode(language=types.Language.PYTHON, code=CODE)
            ),
            types.Part(
                code_execution_result=types.CodeExecutionResult(
                    outcome=types.Outcome.OUTCOME_OK, output="385\n"
                )
            ),
            types.Part(text="The sum of the squares of 1 to 10 is 385."),
        ]
        yield LlmResponse(content=types.Content(role="model", parts=parts))


def _model() -> str | BaseLlm:
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflineCodeModel()


root_agent = Agent(
    name="calculator",
    model=_model(),
    description="Answers arithmetic questions by running code.",
    instruction="Answer arithmetic questions. Write and run Python code to compute answers.",
    code_executor=BuiltInCodeExecutor(),
    planner=BuiltInPlanner(
        thinking_config=types.ThinkingConfig(include_thoughts=True, thinking_budget=1024)
    ),
)
