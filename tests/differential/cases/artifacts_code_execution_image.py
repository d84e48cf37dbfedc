"""BuiltInCodeExecutor drawing an image, with an artifact service: 2.13 saves it as an
artifact (its display name as the filename), puts a text naming it in the model's
event instead of the bytes, and the code executor's event carries the artifact_delta."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.code_executors import BuiltInCodeExecutor
from google.genai import types

TURNS = ["plot it", "thanks"]


def artifact_service():
    return InMemoryArtifactService()


def build(scripted):
    code = types.Part(
        executable_code=types.ExecutableCode(code="plot()", language=types.Language.PYTHON)
    )
    result = types.Part(
        code_execution_result=types.CodeExecutionResult(outcome=types.Outcome.OUTCOME_OK)
    )
    image = types.Part(
        inline_data=types.Blob(data=b"\x89PNG-plot", mime_type="image/png", display_name="plot.png")
    )
    return LlmAgent(
        name="plotter",
        instruction="Plot with code.",
        code_executor=BuiltInCodeExecutor(),
        model=scripted(
            [code, result, image, types.Part(text="Here is the plot.")],
            "You're welcome.",
            model="gemini-2.5-flash",
        ),
    )
