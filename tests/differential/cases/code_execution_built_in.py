"""BuiltInCodeExecutor (google's code_execution sample): the request declares Gemini's
code execution tool; the model's executable code and its result are kept in its event,
and go back to the model as text on the next turn; 2.13 records an empty event from
the code executor before each model event."""

from google.adk.agents import LlmAgent
from google.adk.code_executors import BuiltInCodeExecutor
from google.genai import types

TURNS = ["what is 21 * 2?", "and 6 * 7?"]


def build(scripted):
    code = types.Part(
        executable_code=types.ExecutableCode(code="print(21 * 2)", language=types.Language.PYTHON)
    )
    result = types.Part(
        code_execution_result=types.CodeExecutionResult(
            outcome=types.Outcome.OUTCOME_OK, output="42\n"
        )
    )
    return LlmAgent(
        name="calculator",
        instruction="Compute with code.",
        code_executor=BuiltInCodeExecutor(),
        model=scripted(
            [code, result, types.Part(text="It is 42.")],
            [types.Part(text="Also 42.")],
            model="gemini-2.5-flash",
        ),
    )
