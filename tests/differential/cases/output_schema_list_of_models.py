"""output_schema=list[Model] without tools: the request asks for the list, a ```json
fenced reply is unwrapped, and output_key holds a list of dicts (None fields dropped).

The second turn's reply is not a list of the model: the invocation raises
pydantic's ValidationError.
"""

from google.adk.agents import LlmAgent
from pydantic import BaseModel, Field

TURNS = ["which cities?", "and now?"]
CONTINUE_AFTER_RAISE = True


class City(BaseModel):
    name: str = Field(description="The city's name.")
    country: str | None = None


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(
            '```json\n[{"name": "Paris", "country": "France"}, {"name": "Rome"}]\n```',
            '{"name": "Oslo"}',
        ),
        instruction="List cities in JSON.",
        output_schema=list[City],
        output_key="cities",
    )
