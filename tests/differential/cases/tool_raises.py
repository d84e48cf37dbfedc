"""A tool raises: the exception leaves run_async."""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["divide"]


class DivisionProblem(ValueError):
    pass


def divide(a: int, b: int) -> dict:
    """Divides a by b.

    Args:
      a: The dividend.
      b: The divisor.
    """
    if b == 0:
        raise DivisionProblem(f"cannot divide {a} by zero")
    return {"result": a / b}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(
            types.Part.from_function_call(name="divide", args={"a": 1, "b": 0}), "never"
        ),
        tools=[divide],
    )
