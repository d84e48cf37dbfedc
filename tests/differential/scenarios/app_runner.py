"""The 2.x App pattern: Runner(app=App(name=..., root_agent=...)), InMemoryRunner's
default app name, messages built as types.UserContent or without a role.
"""

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.runners import InMemoryRunner, Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types


def build(scripted):
    return LlmAgent(
        name="echo",
        model=scripted("one", "two", "three", "four", model="gemini-2.5-flash"),
        instruction="Echo.",
    )


async def _turn(runner, session_id, message, record, label):
    events = []
    try:
        async for event in runner.run_async(
            user_id="u", session_id=session_id, new_message=message
        ):
            events.append(event)
    except Exception as error:
        record(f"{label}: raised", error)
    record(label, events)


async def scenario(agent, record, runner_options):
    app = App(name="echo_app", root_agent=agent)
    runner = Runner(app=app, session_service=InMemorySessionService(), **runner_options)
    try:
        record("app_name", runner.app_name)
        session = await runner.session_service.create_session(app_name="echo_app", user_id="u")
        await _turn(runner, session.id, types.UserContent("as UserContent"), record, "user content")
        await _turn(
            runner, session.id, types.Content(parts=[types.Part(text="no role")]), record, "no role"
        )
        record(
            "stored",
            await runner.session_service.get_session(
                app_name="echo_app", user_id="u", session_id=session.id
            ),
        )
    finally:
        await runner.close()
    default = InMemoryRunner(agent=agent.clone(), **runner_options)
    try:
        record("default app_name", default.app_name)
        session = await default.session_service.create_session(
            app_name=default.app_name, user_id="u"
        )
        await _turn(default, session.id, types.UserContent("hello"), record, "default runner")
    finally:
        await default.close()
