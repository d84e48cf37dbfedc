"""{artifact.x} naming an artifact that does not exist: 2.13's KeyError."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService

TURNS = ["hello"]


def artifact_service():
    return InMemoryArtifactService()


def build(scripted):
    return LlmAgent(
        name="root", model=scripted("never asked"), instruction="Notes: {artifact.notes.txt}"
    )
