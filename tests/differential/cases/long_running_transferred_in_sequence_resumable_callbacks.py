"""long_running_transferred_in_sequence_resumable with agent callbacks: which of them
run when the resumed chain ends. A plugin observes every agent's before/after (its
own callbacks record nothing); the agents' after_agent_callbacks write state.

(Not here: an agent before_agent_callback that writes state on the step that
transferred. 2.13 records it as that agent's last event, so on the resume the agent
finds no transfer to resume and runs its model again instead of the target.)"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


def _count(name):
    def callback(callback_context):
        key = f"{name}_{callback_context.agent_name}"
        callback_context.state[key] = callback_context.state.get(key, 0) + 1

    return callback


class Observer(BasePlugin):
    def __init__(self):
        super().__init__(name="observer")
        self.observed = []

    async def before_agent_callback(self, *, agent, callback_context):
        self.observed.append(["before", agent.name])

    async def after_agent_callback(self, *, agent, callback_context):
        self.observed.append(["after", agent.name])


def plugins():
    return [Observer()]


def approved(events):
    event, call = next(
        (e, c)
        for e in events
        for c in e.get_function_calls()
        if c.id in (e.long_running_tool_ids or [])
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "ok"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": event.invocation_id, "new_message": message}


TURNS = ["reimburse 200", approved]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved and paid.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
        after_agent_callback=_count("after"),
    )
    front = LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "desk"}),
            "Front again.",
            model="front-model",
        ),
        sub_agents=[desk],
        after_agent_callback=_count("after"),
    )
    notify = LlmAgent(name="notify", model=scripted("Notified.", model="notify-model"))
    return SequentialAgent(name="pipeline", sub_agents=[front, notify])


RESUMABLE = True
TURN_TIMEOUT = 60.0
