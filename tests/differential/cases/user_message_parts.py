"""A user message of several parts: text, inline bytes (hello_world's run_prompt_bytes
without artifacts), a file reference; and a message with no text at all.
"""

from google.adk.agents import LlmAgent
from google.genai import types


def with_bytes(events):
    return types.Content(
        role="user",
        parts=[
            types.Part.from_text(text="Read this:"),
            types.Part.from_bytes(data=str.encode("Hi bytes"), mime_type="text/plain"),
            types.Part.from_uri(file_uri="gs://bucket/doc.pdf", mime_type="application/pdf"),
        ],
    )


def only_bytes(events):
    return types.Content(
        role="user", parts=[types.Part.from_bytes(data=b"\x89PNG\r\n", mime_type="image/png")]
    )


TURNS = [with_bytes, only_bytes]


def build(scripted):
    return LlmAgent(
        name="reader",
        model=scripted("It says hi.", "A picture.", model="gemini-2.5-flash"),
        instruction="Describe what the user sends.",
    )
