"""The session services' newer and older calls: get_user_state (the user's `user:`
state without a session, keys unprefixed; {} for an unknown user) after a run and a
manual append, on InMemorySessionService and SqliteSessionService; flush; and
InMemorySessionService's deprecated *_sync methods (create, get, list, delete).
"""

import tempfile
import time
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.events import Event, EventActions
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.adk.tools.tool_context import ToolContext
from google.genai import types

APP, USER = "prefs", "ada"


def prefer(color: str, tool_context: ToolContext) -> str:
    """Remembers the user's color."""
    tool_context.state["user:color"] = color
    tool_context.state["app:seen"] = True
    return "ok"


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="prefs_agent",
        model=scripted(
            call(name="prefer", args={"color": "teal"}),
            "Noted.",
            call(name="prefer", args={"color": "teal"}),
            "Noted again.",
            model="gemini-2.5-flash",
        ),
        instruction="Remember preferences.",
        tools=[prefer],
    )


async def _user_state(agent, service, record, label, runner_options):
    runner = Runner(app_name=APP, agent=agent, session_service=service, **runner_options)
    try:
        session = await service.create_session(
            app_name=APP, user_id=USER, state={"user:lang": "fr", "plain": 1}
        )
        record(f"{label}: before", await service.get_user_state(app_name=APP, user_id=USER))
        async for _ in runner.run_async(
            user_id=USER, session_id=session.id, new_message=types.UserContent("teal please")
        ):
            pass
        session = await service.get_session(app_name=APP, user_id=USER, session_id=session.id)
        await service.append_event(
            session,
            Event(
                author="user",
                invocation_id="manual",
                timestamp=time.time(),
                actions=EventActions(state_delta={"user:size": "M", "user:lang": None}),
            ),
        )
        await service.flush()
        record(f"{label}: after", await service.get_user_state(app_name=APP, user_id=USER))
        record(f"{label}: nobody", await service.get_user_state(app_name=APP, user_id="nobody"))
    finally:
        await runner.close()


async def scenario(agent, record, runner_options):
    await _user_state(agent, InMemorySessionService(), record, "in memory", runner_options)
    with tempfile.TemporaryDirectory() as folder:
        service = SqliteSessionService(str(Path(folder) / "sessions.db"))
        await _user_state(agent.clone(), service, record, "sqlite", runner_options)

    sync = InMemorySessionService()
    made = sync.create_session_sync(app_name=APP, user_id=USER, session_id="s1", state={"k": 1})
    record("sync create", made)
    record("sync get", sync.get_session_sync(app_name=APP, user_id=USER, session_id="s1"))
    record("sync get missing", sync.get_session_sync(app_name=APP, user_id=USER, session_id="x"))
    record("sync list", sync.list_sessions_sync(app_name=APP, user_id=USER))
    sync.delete_session_sync(app_name=APP, user_id=USER, session_id="s1")
    record("sync after delete", sync.list_sessions_sync(app_name=APP))
