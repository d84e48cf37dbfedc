"""UnsafeLocalCodeExecutor: the first code block of an answer runs in a fresh Python
process; 2.13 records the answer cut after the block (the code as an executable code
part) and the result as the agent's events, not the answer, and asks the model again
with both as text. A failed run counts against error_retry_attempts (per invocation):
once spent, an answer with code is an ordinary final answer. output_key keeps the
run's text."""

from google.adk.agents import LlmAgent
from google.adk.code_executors import UnsafeLocalCodeExecutor

REFERENCE_ARTIFACT_SERVICE = True
TURNS = ["what is 21 * 2?", "now divide by zero", "and once more"]


def build(scripted):
    return LlmAgent(
        name="calculator",
        instruction="Compute with code.",
        output_key="answer",
        code_executor=UnsafeLocalCodeExecutor(error_retry_attempts=1),
        model=scripted(
            "Let me compute.\n```python\nprint(21 * 2)\n```\nThat should do.",
            "It is 42.",
            "```tool_code\nx = 1\nprint(x / 0)\n```",
            "Trying again:\n```python\nprint(1 / 0)\n```",
            "```python\nimport sys\nprint('to stderr', file=sys.stderr)\nprint('fine')\n```",
            "All good.",
        ),
    )
