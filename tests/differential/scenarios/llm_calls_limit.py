"""RunConfig(max_llm_calls=...) on run_async: the exception a caller catches, the events
before it, and the session afterwards; then a next turn with the default limit.
"""

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.runners import InMemoryRunner
from google.genai import types


def ping(n: int) -> int:
    """Pings."""
    return n


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="looper",
        model=scripted(
            call(name="ping", args={"n": 1}),
            call(name="ping", args={"n": 2}),
            call(name="ping", args={"n": 3}),
            "done",
            model="gemini-2.5-flash",
        ),
        tools=[ping],
    )


async def scenario(agent, record, runner_options):
    runner = InMemoryRunner(agent=agent, app_name="limits", **runner_options)
    try:
        session = await runner.session_service.create_session(app_name="limits", user_id="u")
        for label, config in (("limited", RunConfig(max_llm_calls=2)), ("default", None)):
            events = []
            try:
                async for event in runner.run_async(
                    user_id="u",
                    session_id=session.id,
                    new_message=types.UserContent(label),
                    run_config=config,
                ):
                    events.append(event)
            except Exception as error:
                record(f"{label}: raised", error)
            record(f"{label}: events", events)
        record(
            "stored",
            await runner.session_service.get_session(
                app_name="limits", user_id="u", session_id=session.id
            ),
        )
    finally:
        await runner.close()
