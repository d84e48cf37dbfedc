from google.adk.agents import Context, LlmAgent
from google.adk.workflow import START, Workflow
from google.genai import types

TURNS = ["weather in Paris?"]


def get_weather(city: str) -> dict:
    """Weather of a city."""
    return {"city": city, "sky": "sunny"}


def build(scripted):
    agent = LlmAgent(
        name="helper",
        model=scripted(
            types.Part(
                function_call=types.FunctionCall(name="get_weather", args={"city": "Paris"})
            ),
            "It is sunny.",
        ),
        instruction="Answer.",
        tools=[get_weather],
        output_key="answer",
    )
    inner = Workflow(name="inner", edges=[(START, agent)])

    def finish(ctx: Context, node_input) -> str:
        return f"[{node_input}] {ctx.state.get('answer')}"

    return Workflow(name="outer", edges=[(START, inner, finish)])
