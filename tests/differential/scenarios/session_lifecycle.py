"""Runner and session-service usage as google-adk's samples and docs write it.

InMemoryRunner(agent=..., app_name=...); runner.session_service.create_session
with and without an id and with prefixed state; run_async with state_delta;
get_session after the run (state, events); list_sessions; a manual
append_event with an EventActions state_delta (the docs' state page);
get_session with GetSessionConfig; delete_session; the errors a user meets
(a duplicate id, a missing session).
"""

import time

from google.adk.agents import LlmAgent
from google.adk.events import Event, EventActions
from google.adk.runners import InMemoryRunner
from google.adk.sessions.base_session_service import GetSessionConfig
from google.adk.tools.tool_context import ToolContext
from google.genai import types

APP, USER = "my_app", "user1"


def remember(color: str, tool_context: ToolContext) -> dict:
    """Remembers a color.

    Args:
      color: The color.
    """
    tool_context.state["user:color"] = color
    tool_context.state["temp:seen"] = True
    return {"mood": tool_context.state.get("mood")}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="greeter",
        model=scripted(
            call(name="remember", args={"color": "blue"}),
            "Hello Ada, noted blue.",
            "Hi again.",
        ),
        instruction="Greet {user:name} in the {app:theme} theme; mood {mood?}.",
        tools=[remember],
        output_key="last_greeting",
    )


async def scenario(agent, record, runner_options):
    runner = InMemoryRunner(agent=agent, app_name=APP, **runner_options)
    service = runner.session_service
    try:
        s1 = await service.create_session(
            app_name=APP,
            user_id=USER,
            state={"user:name": "Ada", "app:theme": "dark", "temp:draft": 1, "k": "v"},
        )
        record("created", s1)
        content = types.Content(role="user", parts=[types.Part.from_text(text="hi")])
        events = []
        async for event in runner.run_async(
            user_id=USER, session_id=s1.id, new_message=content, state_delta={"mood": "happy"}
        ):
            events.append(event)
        record("run 1 events", events)
        record(
            "after run 1", await service.get_session(app_name=APP, user_id=USER, session_id=s1.id)
        )

        s2 = await service.create_session(app_name=APP, user_id=USER, session_id="fixed-id")
        record("created fixed", s2)
        try:
            await service.create_session(app_name=APP, user_id=USER, session_id="fixed-id")
        except Exception as error:
            record("duplicate id", error)
        record("listed", await service.list_sessions(app_name=APP, user_id=USER))
        record("listed other user", await service.list_sessions(app_name=APP, user_id="nobody"))

        # the docs' state page: a state change with no agent run
        session = await service.get_session(app_name=APP, user_id=USER, session_id=s1.id)
        current_time = time.time()
        state_changes = {
            "task_status": "active",
            "user:login_count": session.state.get("user:login_count", 0) + 1,
            "user:last_login_ts": 7,
            "temp:validation_needed": True,
        }
        actions_with_update = EventActions(state_delta=state_changes)
        system_event = Event(
            invocation_id="inv_login_update",
            author="system",
            actions=actions_with_update,
            timestamp=current_time,
        )
        record("appended", await service.append_event(session, system_event))
        record("session after append (the object)", session)
        record(
            "after append", await service.get_session(app_name=APP, user_id=USER, session_id=s1.id)
        )
        record(
            "recent 2",
            await service.get_session(
                app_name=APP,
                user_id=USER,
                session_id=s1.id,
                config=GetSessionConfig(num_recent_events=2),
            ),
        )

        events = []
        async for event in runner.run_async(
            user_id=USER,
            session_id=s1.id,
            new_message=types.Content(role="user", parts=[types.Part(text="again")]),
        ):
            events.append(event)
        record("run 2 events", events)
        record(
            "after run 2", await service.get_session(app_name=APP, user_id=USER, session_id=s1.id)
        )
        record(
            "other session sees user: state",
            await service.get_session(app_name=APP, user_id=USER, session_id="fixed-id"),
        )

        try:
            async for _event in runner.run_async(
                user_id=USER, session_id="missing", new_message=content
            ):
                pass
        except Exception as error:
            record("run on a missing session", error)

        await service.delete_session(app_name=APP, user_id=USER, session_id="fixed-id")
        record(
            "deleted", await service.get_session(app_name=APP, user_id=USER, session_id="fixed-id")
        )
        record("listed after delete", await service.list_sessions(app_name=APP, user_id=USER))
        record("missing", await service.get_session(app_name=APP, user_id=USER, session_id="nope"))
    finally:
        await runner.close()
