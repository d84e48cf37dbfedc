"""Runner.rewind_async of an invocation left waiting for a confirmation (2.13's run has
ended there; ours's workflow waits, and ends first as for a new message): the rewind
event, the state, the next turn's model request.
"""

from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.adk.tools import FunctionTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types


def double(x: int, tool_context: ToolContext) -> int:
    """Doubles x.

    Args:
      x: The number.
    """
    tool_context.state["doubled"] = 2 * x
    return 2 * x


def build(scripted):
    return LlmAgent(
        name="checker",
        model=scripted(
            "hi",
            types.Part.from_function_call(name="double", args={"x": 5}),
            "fresh start",
            model="gemini-2.5-flash",
        ),
        instruction="Double numbers.",
        tools=[FunctionTool(double, require_confirmation=True)],
    )


async def _turn(runner, session_id, text, record, label, state_delta=None):
    events = []
    try:
        async for event in runner.run_async(
            user_id="u",
            session_id=session_id,
            new_message=types.UserContent(text),
            state_delta=state_delta,
        ):
            events.append(event)
    except Exception as error:
        record(f"{label}: raised", error)
    record(label, events)
    return events[0].invocation_id if events else None


async def scenario(agent, record, runner_options):
    runner = InMemoryRunner(agent=agent, **runner_options)
    sessions = runner.session_service
    try:
        session = await sessions.create_session(app_name=runner.app_name, user_id="u")
        where = dict(app_name=runner.app_name, user_id="u", session_id=session.id)
        await _turn(runner, session.id, "hello", record, "turn 1", {"mood": "calm"})
        pending = await _turn(runner, session.id, "double 5", record, "turn 2", {"mood": "busy"})
        record(
            "rewind",
            await runner.rewind_async(
                user_id="u", session_id=session.id, rewind_before_invocation_id=pending
            ),
        )
        record("rewound", await sessions.get_session(**where))
        await _turn(runner, session.id, "start over", record, "turn 3")
        record("final", await sessions.get_session(**where))
    finally:
        await runner.close()
