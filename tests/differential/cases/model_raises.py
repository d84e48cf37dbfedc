"""The model call raises (a custom BaseLlm's own error): the exception leaves run_async."""

from google.adk.agents import LlmAgent

TURNS = ["hello"]


class QuotaProblem(RuntimeError):
    pass


def build(scripted):
    return LlmAgent(name="root", model=scripted(QuotaProblem("quota exhausted for today")))
