"""Runner.run_debug: what it prints (quiet, plain, verbose: tool calls and results,
joined text parts, thoughts), the events it returns, the session it creates then
continues.
"""

import contextlib
import io

from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.genai import types


def lookup(city: str) -> dict:
    """Looks a city up."""
    return {"city": city, "population": 513_275, "note": "x" * 120}


def build(scripted):
    def call():
        return types.Part.from_function_call(name="lookup", args={"city": "Lyon" * 20})

    return LlmAgent(
        name="guide",
        model=scripted(
            [types.Part(text="thinking...", thought=True), call()],
            [types.Part(text="Lyon has "), types.Part(text="513,275 people.")],
            "Quiet answer.",
            call(),
            "Again.",
            model="gemini-2.5-flash",
        ),
        instruction="Answer about cities.",
        tools=[lookup],
    )


async def _debug(runner, record, label, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        events = await runner.run_debug(*args, **kwargs)
    record(f"{label}: printed", out.getvalue().splitlines())
    record(f"{label}: events", events)


async def scenario(agent, record, runner_options):
    runner = InMemoryRunner(agent=agent, **runner_options)
    try:
        await _debug(runner, record, "plain", "How big is Lyon?")
        await _debug(runner, record, "quiet", ["and now?"], quiet=True)
        await _debug(
            runner, record, "verbose", "again", verbose=True, user_id="alice", session_id="s2"
        )
        record(
            "debug session",
            await runner.session_service.get_session(
                app_name=runner.app_name, user_id="debug_user_id", session_id="debug_session_id"
            ),
        )
        record("resumability_config", runner.resumability_config)
        record("context_cache_config", runner.context_cache_config)
    finally:
        await runner.close()
