"""The docs' call_agent_async: `break` out of run_async at the first final response,
then the next message at once (the agent team tutorial's loop). The agent's
after_agent_callback adds a state change after its final text.
"""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types


def after_agent(callback_context: CallbackContext):
    callback_context.state["turns_done"] = callback_context.state.get("turns_done", 0) + 1


def build(scripted):
    return LlmAgent(
        name="chatty",
        model=scripted("one", "two", "three", model="gemini-2.5-flash"),
        after_agent_callback=after_agent,
    )


async def call_agent_async(query, runner, user_id, session_id, record):
    content = types.Content(role="user", parts=[types.Part(text=query)])
    final_response_text = "Agent did not produce a final response."
    try:
        async for event in runner.run_async(
            user_id=user_id, session_id=session_id, new_message=content
        ):
            if event.is_final_response():
                if event.content and event.content.parts:
                    final_response_text = event.content.parts[0].text
                break
    except Exception as error:
        record(f"{query}: raised", error)
    record(query, final_response_text)


async def scenario(agent, record, runner_options):
    service = InMemorySessionService()
    await service.create_session(app_name="team", user_id="u", session_id="s")
    runner = Runner(agent=agent, app_name="team", session_service=service, **runner_options)
    try:
        for query in ("first", "second", "third"):
            await call_agent_async(query, runner, "u", "s", record)
        session = await service.get_session(app_name="team", user_id="u", session_id="s")
        record("state", session.state)
        record("authors", [e.author for e in session.events])
    finally:
        await runner.close()
