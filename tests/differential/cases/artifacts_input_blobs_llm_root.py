"""RunConfig(save_input_blobs_as_artifacts=True) with an LlmAgent root: 2.13's runner
for it (its node runner) ignores the setting; the files stay in the message."""

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.artifacts import InMemoryArtifactService
from google.genai import types

RUN_CONFIG = RunConfig(save_input_blobs_as_artifacts=True)


def upload(events):
    return types.Content(
        role="user",
        parts=[
            types.Part.from_text(text="See attached."),
            types.Part.from_bytes(data=b"hello", mime_type="text/plain"),
        ],
    )


TURNS = [upload]


def artifact_service():
    return InMemoryArtifactService()


def build(scripted):
    return LlmAgent(name="root", model=scripted("Got it."), instruction="Read the upload.")
