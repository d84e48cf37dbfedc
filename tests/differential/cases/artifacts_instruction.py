"""{artifact.x} in an instruction with an artifact service: text, JSON bytes (as text),
an image (2.13's placeholder text), a user-scoped one, an optional missing one; then a
required missing one (KeyError) in a second agent's turn."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.genai import types

TURNS = ["hello"]
INITIAL_ARTIFACTS = {
    "notes.txt": types.Part.from_text(text="Be brief."),
    "settings.json": types.Part.from_bytes(data=b'{"tone": "warm"}', mime_type="application/json"),
    "logo.png": types.Part.from_bytes(data=b"\x89PNG", mime_type="image/png"),
    "user:name.txt": types.Part.from_text(text="Ada"),
}


def artifact_service():
    return InMemoryArtifactService()


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("Hi Ada."),
        instruction=(
            "Notes: {artifact.notes.txt}\nSettings: {artifact.settings.json}\n"
            "Logo: {artifact.logo.png}\nUser: {artifact.user:name.txt}\n"
            "Extra: [{artifact.extra.txt?}]"
        ),
    )
