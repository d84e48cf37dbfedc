"""google/adk-python contributing/samples/fields_output_schema: output_schema + output_key."""

from google.adk import Agent
from pydantic import BaseModel

TURNS = ["What is the weather in San Jose?", "And Cupertino?"]


class WeahterData(BaseModel):
    temperature: str
    humidity: str
    wind_speed: str


def build(scripted):
    return Agent(
        name="root_agent",
        model=scripted(
            '{"temperature": "26 C", "humidity": "20%", "wind_speed": "29 mph"}',
            '{"temperature": "16 C", "humidity": "10%", "wind_speed": "13 mph"}',
            model="gemini-2.0-flash",
        ),
        instruction="""\
Answer user's questions based on the data you have.

Here are the data you have for San Jose

* temperature: 26 C
* humidity: 20%
* wind_speed: 29 mph

""",
        output_schema=WeahterData,
        output_key="weather_data",
    )
