"""A custom agent that routes: a classifier writes `route` to state, then the
router's _run_async_impl runs one of three sub-agents by that value (an unknown
value: an event of its own, naming what ctx says). Its before/after agent
callbacks run around it, as around any agent. Four turns cover the three
routes and the fallback."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

TURNS = ["my invoice is wrong", "the app crashes", "hello there", "sing to me"]


class Router(BaseAgent):
    """Runs the classifier, then the agent its answer names."""

    classifier: LlmAgent
    routes: dict[str, BaseAgent]

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.classifier.run_async(ctx):
            yield event
        route = ctx.session.state.get("route", "")
        chosen = self.routes.get(route.strip().lower())
        if chosen is None:
            yield Event(
                invocation_id=ctx.invocation_id,
                author=self.name,
                branch=ctx.branch,
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            text=f"No agent for {route!r} ({ctx.user_content.parts[0].text},"
                            f" {ctx.agent.name}, {ctx.session.app_name}, {ctx.user_id})."
                        )
                    ],
                ),
            )
            return
        async for event in chosen.run_async(ctx):
            yield event


def count_turns(callback_context: CallbackContext):
    callback_context.state["routed"] = callback_context.state.get("routed", 0) + 1
    return None


def sign(callback_context: CallbackContext):
    if callback_context.state.get("route") == "general":
        return types.Content(role="model", parts=[types.Part(text="(routed)")])
    return None


def build(scripted):
    classifier = LlmAgent(
        name="Classifier",
        model=scripted("billing", "tech", "general", "music"),
        instruction="Answer with one word: billing, tech or general.",
        output_key="route",
    )
    billing = LlmAgent(
        name="Billing", model=scripted("Refund issued."), instruction="You fix invoices."
    )
    tech = LlmAgent(
        name="Tech",
        model=scripted("Reinstall it. Route was {route}."),
        instruction="You fix apps; the route was {route}.",
    )
    general = LlmAgent(name="General", model=scripted("Hi!"), instruction="You chat.")
    return Router(
        name="Router",
        description="Routes a request to the right agent.",
        classifier=classifier,
        routes={"billing": billing, "tech": tech, "general": general},
        sub_agents=[classifier, billing, tech, general],
        before_agent_callback=count_turns,
        after_agent_callback=sign,
    )
