"""RunConfig.custom_metadata: merged into every event the run records (the user
message, model responses, function responses, callbacks' events, a plugin's
before_run answer), under each event's own keys; keys with the ADK-internal prefix
are dropped. Tools, callbacks and instruction providers read it from their context
(ReadonlyContext.custom_metadata: a read-only view); a plugin's on_event sees it and
a replacement event it returns is merged with it too. Model requests do not carry it.
"""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.agents.run_config import RunConfig
from google.adk.events.event import Event
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["who sent this?", "stop here", "once more"]
RUN_CONFIG = RunConfig(
    custom_metadata={"tenant": "acme", "trace": "run-1", "__adk_internal_forged": True}
)


def sender(tool_context: ToolContext) -> dict:
    """Tells who sent the request."""
    return {"metadata": dict(tool_context.custom_metadata)}


def instruction(context: ReadonlyContext) -> str:
    try:
        context.custom_metadata["tenant"] = "other"  # type: ignore[index]
        writable = "writable"
    except TypeError:
        writable = "read-only"
    return f"Serve tenant {context.custom_metadata['tenant']} ({writable})."


def before_agent(callback_context: CallbackContext):
    callback_context.state["agent_saw"] = dict(callback_context.custom_metadata)


def before_model(callback_context: CallbackContext, llm_request):
    callback_context.state["model_saw"] = sorted(callback_context.custom_metadata)


def after_agent(callback_context: CallbackContext):
    if callback_context.state.get("closing"):
        return types.Content(role="model", parts=[types.Part(text="closing note")])
    callback_context.state["closing"] = True
    return None


class Observer(BasePlugin):
    def __init__(self) -> None:
        super().__init__(name="observer")
        self.observed: list = []

    async def before_run_callback(self, *, invocation_context) -> Optional[types.Content]:
        if "stop" in invocation_context.user_content.parts[0].text:
            return types.Content(role="model", parts=[types.Part(text="stopped")])
        return None

    async def on_event_callback(self, *, invocation_context, event: Event) -> Optional[Event]:
        self.observed.append([event.author, event.custom_metadata])
        if event.content and event.content.parts and event.content.parts[0].text == "Acme.":
            return Event(author=event.author, custom_metadata={"trace": "plugin"})
        return None


def plugins():
    return [Observer()]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="sender", args={}),
            {"content": "Acme.", "custom_metadata": {"trace": "model", "tokens": 3}},
            {"content": "Again acme.", "custom_metadata": {"tokens": 4}},
        ),
        instruction=instruction,
        tools=[sender],
        before_agent_callback=before_agent,
        before_model_callback=before_model,
        after_agent_callback=after_agent,
    )
