from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["book a flight", "Paris"]


def fc(name, args):
    return types.Part(function_call=types.FunctionCall(name=name, args=args))


def build(scripted):
    booker = LlmAgent(
        name="booker",
        mode="task",
        description="Books flights.",
        model=scripted(
            "Where to?",
            fc("finish_task", {"result": "booked Paris"}),
        ),
        instruction="Book it.",
    )
    summarizer = LlmAgent(
        name="summarizer",
        mode="single_turn",
        description="Summarizes.",
        model=scripted("short summary"),
        instruction="Summarize.",
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            fc("booker", {"request": "book a flight"}),
            fc("summarizer", {"request": "summarize booking"}),
            "Done: booked Paris.",
        ),
        instruction="Coordinate.",
        sub_agents=[booker, summarizer],
    )
