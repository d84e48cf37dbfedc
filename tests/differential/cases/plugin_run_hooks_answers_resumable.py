"""plugin_run_hooks_answers in a resumable app: two long-running calls in one step,
answered one message each (the first answer's run pauses again: its hooks run, no model
call); on_user_message replaces an answer (the replacement is recorded and answers the
call); before_run answers instead of an answer's run (neither the agent nor the model
runs for it)."""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(name: str) -> None:
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
            out.append(f"FR {p.function_response.name} {p.function_response.response}")
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
        part = user_message.parts[0]
        if part.function_response and part.function_response.response == {"status": "raw"}:
            fr = part.function_response
            return types.Content(
                role="user",
                parts=[
                    types.Part(
                        function_response=types.FunctionResponse(
                            id=fr.id, name=fr.name, response={"status": "cooked"}
                        )
                    )
                ],
            )
        return None

    async def before_run_callback(self, *, invocation_context) -> Optional[types.Content]:
        last = invocation_context.session.events[-1]
        self.observed.append(
            [
                "before_run",
                self._inv(invocation_context),
                _describe(invocation_context.user_content),
                invocation_context.is_resumable,
                _describe(last.content),
            ]
        )
        frs = last.get_function_responses()
        if frs and frs[0].response == {"status": "stop"}:
            return types.Content(role="model", parts=[types.Part(text="stopped by the plugin")])
        return None

    async def after_run_callback(self, *, invocation_context) -> None:
        self.observed.append(["after_run", self._inv(invocation_context)])


def plugins():
    return [Observer("observer")]


def answer(name, response):
    def message(events):
        call = next(
            c
            for e in events
            for c in e.get_function_calls()
            if c.name == "open_ticket" and c.args["name"] == name
        )
        part = types.Part(
            function_response=types.FunctionResponse(
                id=call.id, name="open_ticket", response=response
            )
        )
        return types.Content(role="user", parts=[part])

    return message


TURNS = [
    "two tickets",
    answer("a", {"status": "raw"}),
    answer("b", {"status": "done"}),
    "one more",
    answer("c", {"status": "stop"}),
    "bye",
]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="desk",
        model=scripted(
            [
                call(name="open_ticket", args={"name": "a"}),
                call(name="open_ticket", args={"name": "b"}),
            ],
            "Both done.",
            call(name="open_ticket", args={"name": "c"}),
            "after c",
            "Bye.",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )


RESUMABLE = True
