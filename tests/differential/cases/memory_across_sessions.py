"""Memory across sessions: an earlier session of the user's is in memory; load_memory
finds it (the model calls the tool), preload_memory puts what matches the user's
message before it on every request, and an after_agent_callback adds this session
to memory and searches it (a count in state). Requests, events and state as 2.13's.
(The second turn asks nothing the first said: a live event's time is in the block.)"""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.events import Event
from google.adk.memory import InMemoryMemoryService
from google.adk.sessions import Session
from google.adk.tools import load_memory, preload_memory
from google.genai import types

TURNS = ["what is my favourite colour?", "where do I live?"]


def memory_service():
    return InMemoryMemoryService()


async def seed_memory(service, app_name, user_id):
    said = [
        ("user", "My favourite colour is teal and I live in Lyon."),
        ("helper", "Noted: teal, Lyon."),
    ]
    events = [
        Event(
            id=f"old-{n}",
            invocation_id="e-old",
            author=author,
            timestamp=1_700_000_000.0 + n,
            content=types.Content(
                role="user" if author == "user" else "model", parts=[types.Part(text=text)]
            ),
        )
        for n, (author, text) in enumerate(said)
    ]
    await service.add_session_to_memory(
        Session(id="old-session", app_name=app_name, user_id=user_id, events=events)
    )


async def remember(callback_context: CallbackContext):
    await callback_context.add_session_to_memory()
    found = await callback_context.search_memory("teal")
    callback_context.state["memories_about_teal"] = len(found.memories)


def build(scripted):
    return LlmAgent(
        name="helper",
        instruction="Answer from what you remember.",
        tools=[load_memory, preload_memory],
        after_agent_callback=remember,
        model=scripted(
            [types.Part.from_function_call(name="load_memory", args={"query": "favourite colour"})],
            [types.Part(text="Teal.")],
            [types.Part(text="Lyon.")],
        ),
    )
