"""The docs' synchronous pattern: Runner(...) with an InMemorySessionService,
`runner.run(...)` iterated from plain (non-async) code, the final response
picked with event.is_final_response(); then RunConfig(max_llm_calls=...) on a
model that keeps calling a tool.
"""

import asyncio

from google.adk.agents import Agent
from google.adk.agents.run_config import RunConfig
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

APP_NAME, USER_ID, SESSION_ID = "weather_tutorial_app", "user_1", "session_001"


def get_weather(city: str) -> dict:
    """Retrieves the current weather report for a specified city.

    Args:
        city (str): The name of the city (e.g., "New York", "London", "Tokyo").

    Returns:
        dict: A dictionary containing the weather information.
    """
    return {"status": "success", "report": f"The weather in {city} is sunny."}


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        name="weather_agent_v1",
        model=scripted(
            call(name="get_weather", args={"city": "London"}),
            "It is sunny in London.",
            call(name="get_weather", args={"city": "Paris"}),
            call(name="get_weather", args={"city": "Rome"}),
            call(name="get_weather", args={"city": "Oslo"}),
            model="gemini-2.0-flash",
        ),
        description="Provides weather information for specific cities.",
        instruction="You are a helpful weather assistant.",
        tools=[get_weather],
    )


def call_agent(runner, query, record, **kwargs):
    """The docs' call_agent, synchronous."""
    content = types.Content(role="user", parts=[types.Part(text=query)])
    final_response_text = "Agent did not produce a final response."
    events = []
    try:
        for event in runner.run(
            user_id=USER_ID, session_id=SESSION_ID, new_message=content, **kwargs
        ):
            events.append(event)
            if event.is_final_response():
                if event.content and event.content.parts:
                    final_response_text = event.content.parts[0].text
                elif event.actions and event.actions.escalate:
                    final_response_text = f"Agent escalated: {event.error_message}"
                break
    except Exception as error:
        record(f"{query}: raised", error)
    record(f"{query}: events", events)
    record(f"{query}: final", final_response_text)


async def scenario(agent, record, runner_options):
    session_service = InMemorySessionService()
    await session_service.create_session(app_name=APP_NAME, user_id=USER_ID, session_id=SESSION_ID)
    runner = Runner(
        agent=agent, app_name=APP_NAME, session_service=session_service, **runner_options
    )
    try:
        await asyncio.to_thread(call_agent, runner, "What is the weather like in London?", record)
        await asyncio.to_thread(
            call_agent,
            runner,
            "Now Paris, Rome and Oslo, one by one.",
            record,
            run_config=RunConfig(max_llm_calls=2),
        )
        session = await session_service.get_session(
            app_name=APP_NAME, user_id=USER_ID, session_id=SESSION_ID
        )
        record("session", session)
    finally:
        await runner.close()
