"""plugin_run_hooks_answers for an agent the root transferred to (ours: the transfer's
child workflow waits for the answer, and runs the hooks)."""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> dict:
    """Opens an approval ticket; the manager answers later."""
    return {"status": "pending", "ticket": "t-1"}


def _describe(content):
    if content is None:
        return None
    out = []
    for p in content.parts or []:
        if p.text:
            out.append(p.text)
        if p.function_response:
            out.append("FR " + p.function_response.name)
    return out


class Observer(BasePlugin):
    def __init__(self, name):
        super().__init__(name=name)
        self.observed = []
        self._ids = {}

    def _inv(self, ctx):
        return self._ids.setdefault(ctx.invocation_id, f"inv{len(self._ids)}")

    async def on_user_message_callback(
        self, *, invocation_context, user_message
    ) -> Optional[types.Content]:
        self.observed.append(
            ["on_user_message", self._inv(invocation_context), _describe(user_message)]
        )
        return None

    async def before_run_callback(self, *, invocation_context) -> Optional[types.Content]:
        self.observed.append(
            [
                "before_run",
                self._inv(invocation_context),
                _describe(invocation_context.user_content),
                invocation_context.agent.name,
            ]
        )
        return None

    async def after_run_callback(self, *, invocation_context) -> None:
        self.observed.append(
            ["after_run", self._inv(invocation_context), len(invocation_context.session.events)]
        )


def plugins():
    return [Observer("observer")]


def approved(events):
    call = next(c for e in events for c in e.get_function_calls() if c.name == "open_ticket")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["reimburse 200", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager (ticket t-1).",
            "Approved and paid.",
            "Welcome.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "desk"}), model="front-model"
        ),
        sub_agents=[desk],
    )
