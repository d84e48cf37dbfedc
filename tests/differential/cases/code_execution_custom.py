"""A user's own BaseCodeExecutor (stateful, its own delimiters): the execution id and
input files come from the executor's context in the session state; the model's signed
thought stays with the code event; an exception in execute_code ends the run as itself."""

from google.adk.agents import LlmAgent
from google.adk.code_executors import BaseCodeExecutor
from google.adk.code_executors.code_execution_utils import CodeExecutionResult
from google.genai import types

REFERENCE_ARTIFACT_SERVICE = True
INITIAL_STATE = {
    "_code_execution_context": {"execution_session_id": "sandbox-7"},
    "_code_executor_input_files": [
        {"name": "sales.csv", "content": "YSxiCjEsMgo=", "mime_type": "text/csv"}
    ],
}
TURNS = ["run it", "break it"]


class RecordingExecutor(BaseCodeExecutor):
    stateful: bool = True
    code_block_delimiters: list[tuple[str, str]] = [("<run>", "</run>")]
    execution_result_delimiters: tuple[str, str] = ("[out]", "[/out]")

    def execute_code(self, invocation_context, code_execution_input):
        if "boom" in code_execution_input.code:
            raise RuntimeError("the sandbox is down")
        files = [f.name for f in code_execution_input.input_files]
        return CodeExecutionResult(
            stdout=f"ran {code_execution_input.code!r} in"
            f" {code_execution_input.execution_id} with {files}"
        )


def build(scripted):
    thought = types.Part(text="I should run it.", thought=True, thought_signature=b"sig")
    return LlmAgent(
        name="runner",
        instruction="Run code between <run> tags.",
        code_executor=RecordingExecutor(),
        model=scripted(
            [thought, types.Part(text="Running:\n<run>print(1)</run>\nthen more text")],
            "Done.",
            "<run>boom</run>",
        ),
    )
