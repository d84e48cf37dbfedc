"""SaveFilesAsArtifactsPlugin: a message's files saved as artifacts, placeholders in the
recorded message, the versions in the agent's first event's artifact_delta; a file
without a display name; load_artifacts then reads one; a second message with a file
saves a new version."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.plugins.save_files_as_artifacts_plugin import SaveFilesAsArtifactsPlugin
from google.adk.tools import load_artifacts
from google.genai import types


def upload(events):
    return types.Content(
        role="user",
        parts=[
            types.Part.from_text(text="Here are my files."),
            types.Part(
                inline_data=types.Blob(
                    data=b"a,b\n1,2\n", mime_type="text/csv", display_name="table.csv"
                )
            ),
            types.Part(inline_data=types.Blob(data=b"\x89PNG", mime_type="image/png")),
        ],
    )


def upload_again(events):
    return types.Content(
        role="user",
        parts=[
            types.Part(
                inline_data=types.Blob(
                    data=b"a,b\n3,4\n", mime_type="text/csv", display_name="table.csv"
                )
            )
        ],
    )


TURNS = [upload, upload_again]


def artifact_service():
    return InMemoryArtifactService()


def plugins():
    return [SaveFilesAsArtifactsPlugin()]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="load_artifacts", args={"artifact_names": ["table.csv"]}),
            "Two rows.",
            "A new table.",
        ),
        instruction="Look at the user's files.",
        tools=[load_artifacts],
    )
