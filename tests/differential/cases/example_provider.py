"""ExampleTool with a BaseExampleProvider: the examples for the user's message, rendered
into the system instruction as 2.13 renders them (text, a function call and its
response in an example's output), on each model call of the turn."""

from google.adk.agents import LlmAgent
from google.adk.examples.base_example_provider import BaseExampleProvider
from google.adk.examples.example import Example
from google.adk.tools.example_tool import ExampleTool
from google.genai import types

TURNS = ["convert 3 km", "and 10 miles?"]


class UnitExamples(BaseExampleProvider):
    def get_examples(self, query: str) -> list[Example]:
        unit = "miles" if "mile" in query else "km"
        return [
            Example(
                input=types.Content(role="user", parts=[types.Part(text=f"convert 1 {unit}")]),
                output=[
                    types.Content(
                        role="model",
                        parts=[
                            types.Part.from_function_call(
                                name="convert", args={"value": 1, "unit": unit}
                            )
                        ],
                    ),
                    types.Content(
                        role="user",
                        parts=[
                            types.Part.from_function_response(
                                name="convert", response={"result": 1.6 if unit == "miles" else 0.6}
                            )
                        ],
                    ),
                    types.Content(role="model", parts=[types.Part(text="Here you go.")]),
                ],
            )
        ]


def convert(value: float, unit: str) -> dict:
    """Converts between km and miles.

    Args:
      value: The amount.
      unit: "km" or "miles".
    """
    return {"result": round(value * (1.609 if unit == "miles" else 0.621), 3)}


def build(scripted):
    return LlmAgent(
        name="converter",
        instruction="Convert distances.",
        tools=[ExampleTool(UnitExamples()), convert],
        model=scripted(
            [types.Part.from_function_call(name="convert", args={"value": 3, "unit": "km"})],
            [types.Part(text="3 km is 1.863 miles.")],
            [types.Part.from_function_call(name="convert", args={"value": 10, "unit": "miles"})],
            [types.Part(text="10 miles is 16.09 km.")],
        ),
    )
