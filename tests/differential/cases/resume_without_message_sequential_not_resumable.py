"""A Sequential root, not resumable: run_async(invocation_id=...) with no message after its
invocation ended raises ValueError (google-adk 2.13 resumes only a resumable app)."""

from google.adk.agents import LlmAgent, SequentialAgent


def resume_last(events):
    return {"invocation_id": events[-1].invocation_id, "new_message": None}


TURNS = ["hi", resume_last, "again"]


def build(scripted):
    a = LlmAgent(name="a", model=scripted("A here.", "A again.", model="a-model"))
    return SequentialAgent(name="seq", sub_agents=[a])
