"""A plugin that raises in a hook stops the run with google-adk's RuntimeError naming the
plugin and the hook; the session goes on, and the next turn runs normally."""

from google.adk.agents import LlmAgent
from google.adk.plugins.base_plugin import BasePlugin

TURNS = ["boom", "calm"]
CONTINUE_AFTER_RAISE = True


class Touchy(BasePlugin):
    async def before_model_callback(self, *, callback_context, llm_request):
        if "boom" in llm_request.contents[-1].parts[0].text:
            raise ValueError("touchy about booms")
        return None


def plugins():
    return [Touchy(name="touchy")]


def build(scripted):
    return LlmAgent(name="root", model=scripted("calm answer"))
