"""RunConfig(save_input_blobs_as_artifacts=True) (deprecated in 2.13): the message's
inline files saved as artifacts and replaced by a text naming each, under a SequentialAgent;
under an LlmAgent root 2.13 ignores it (its node runner): see artifacts_input_blobs_llm_root."""

from google.adk.agents import LlmAgent, SequentialAgent
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
    reader = LlmAgent(name="reader", model=scripted("Got it."), instruction="Read the upload.")
    return SequentialAgent(name="root", sub_agents=[reader])
