"""load_artifacts: the artifact list in the instruction, the named artifacts put into
the request right after the call (text, CSV and JSON bytes as text, an image inline, a
binary placeholder, a user-scoped one asked for without its prefix, an unknown name),
then gone from the next turn's request."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.tools import load_artifacts
from google.genai import types

TURNS = ["what do my files say?", "thanks"]

INITIAL_ARTIFACTS = {
    "notes.txt": types.Part.from_text(text="Buy milk."),
    "data.csv": types.Part.from_bytes(data=b"a,b\n1,2\n", mime_type="text/csv"),
    "config": types.Part.from_bytes(data=b'{"k": 1}', mime_type="application/json"),
    "photo.png": types.Part.from_bytes(data=b"\x89PNG\r\n", mime_type="image/PNG"),
    "blob.bin": types.Part.from_bytes(data=b"\x00\x01" * 700, mime_type="application/x-thing"),
    "user:profile.txt": types.Part.from_text(text="Name: Ada"),
}


def artifact_service():
    return InMemoryArtifactService()


def build(scripted):
    call = types.Part.from_function_call
    names = ["notes.txt", "data.csv", "config", "photo.png", "blob.bin", "profile.txt", "nope"]
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="load_artifacts", args={"artifact_names": names}),
            "Milk, a table, a photo, Ada.",
            "You're welcome.",
        ),
        instruction="Answer about the user's files.",
        tools=[load_artifacts],
    )
