"""Plugins' run hooks and answers: google-adk 2.13 runs each answer message as a run of
its own, so on_user_message (with the answer), before_run (user_content: the
invocation's own message) and after_run run again for it (a confirmation, then a
long-running call, each answered in the next message; not resumable)."""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def send_money(amount: int) -> dict:
    """Sends money."""
    return {"status": "sent"}


def open_ticket(amount: int) -> None:
    """Opens a ticket."""
    return None


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


def answer(name, response):
    def message(events):
        call = next(c for e in reversed(events) for c in e.get_function_calls() if c.name == name)
        part = types.Part(
            function_response=types.FunctionResponse(id=call.id, name=name, response=response)
        )
        return types.Content(role="user", parts=[part])

    return message


TURNS = [
    "send 10",
    answer("adk_request_confirmation", {"confirmed": True}),
    "ticket",
    answer("open_ticket", {"status": "done"}),
]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="bank",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent.",
            call(name="open_ticket", args={"amount": 5}),
            "Waiting.",
            "Done.",
        ),
        tools=[
            FunctionTool(send_money, require_confirmation=True),
            LongRunningFunctionTool(func=open_ticket),
        ],
    )
