"""Code analyst: the model writes Python, the worker runs it, the model answers from
what it printed (UnsafeLocalCodeExecutor, as google-adk 2.13's code_execution sample
with a local executor).

Each execution is an `adk.execute_code` activity: in the Web UI it reads
`code: code_analyst · UnsafeLocalCodeExecutor · <first line>`. The code runs in a
fresh Python process on the worker's machine, as the worker's user: only run this
with a model and users you trust (README, "Code execution").

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) in the worker's
environment it uses Gemini; otherwise an offline scripted model that computes
statistics of the numbers in the question (and reads the request, so it works
after a worker restart, too).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.code_executors import UnsafeLocalCodeExecutor
from adk.models import BaseLlm, LlmRequest, LlmResponse

_RESULT = "```tool_output\n"
"""How the request shows the model an execution's result (2.13's delimiters)."""


class OfflineCodeModel(BaseLlm):
    """A stand-in for Gemini: writes code over the question's numbers, then reports
    what the code printed (or that it failed)."""

    model: str = "offline-code-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        said = "".join(p.text or "" for p in last.parts or [])
        if said.startswith(_RESULT):
            output = said[len(_RESULT) : -len("\n```")].strip()
            if "Traceback" in output or "timed out" in output:
                text = f"The code failed:\n{output}"
            else:
                printed = output.removeprefix("Code execution result:").strip()
                text = f"Computed with Python:\n{printed}"
            yield _reply(text.strip())
            return
        numbers = re.findall(r"-?\d+(?:\.\d+)?", said) or ["1", "2", "3"]
        code = "\n".join(
            [
                "import statistics",
                f"values = [{', '.join(numbers)}]",
                "print('count', len(values))",
                "print('mean', statistics.mean(values))",
                "print('median', statistics.median(values))",
                "print('stdev', round(statistics.stdev(values), 3) if len(values) > 1 else 0)",
            ]
        )
        yield _reply(f"I will compute it.\n```python\n{code}\n```")


def _reply(text: str) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


def _model() -> str | BaseLlm:
    if os.environ.get("CODE_ANALYST_MODEL"):
        return os.environ["CODE_ANALYST_MODEL"]
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflineCodeModel()


root_agent = Agent(
    name="code_analyst",
    model=_model(),
    description="Answers questions about numbers by writing and running Python.",
    instruction=(
        "You answer questions about data by writing Python. To run code, write it in"
        " a ```python block; you will see what it printed, then answer from it."
        " Use only the standard library."
    ),
    code_executor=UnsafeLocalCodeExecutor(timeout_seconds=30, error_retry_attempts=2),
)
