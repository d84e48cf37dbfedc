"""output_schema without tools: the reply is JSON, stored under output_key."""

from google.adk.agents import LlmAgent
from pydantic import BaseModel, Field

TURNS = ["what is the capital of France?"]


class Answer(BaseModel):
    city: str = Field(description="The city.")
    confidence: float


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted('{"city": "Paris", "confidence": 0.9}'),
        instruction="Answer in JSON.",
        output_schema=Answer,
        output_key="answer",
    )
