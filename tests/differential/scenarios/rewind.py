"""Runner.rewind_async: the rewind event (state delta restoring session state, artifact
delta restoring versions, tombstones for artifacts created since; `user:` and `app:`
left), the turns after it (model contents without the rewound invocations, routing
back to the root though a sub-agent answered last), a rewind of a rewind, an unknown
invocation id, a missing session, and the warning for get_session_config; with an
InMemoryArtifactService, then a FileArtifactService.
"""

import logging
import shutil
import tempfile

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.artifacts import FileArtifactService, InMemoryArtifactService
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.sessions.base_session_service import GetSessionConfig
from google.adk.tools.tool_context import ToolContext
from google.genai import types


def remember(key: str, value: str, tool_context: ToolContext) -> dict:
    """Remembers a value.

    Args:
      key: The state key.
      value: The value.
    """
    tool_context.state[key] = value
    return {"ok": True}


async def note(name: str, text: str, tool_context: ToolContext) -> dict:
    """Saves a note as an artifact.

    Args:
      name: The artifact name.
      text: The text.
    """
    version = await tool_context.save_artifact(name, types.Part.from_text(text=text))
    return {"version": version}


def build(scripted):
    call = types.Part.from_function_call

    def agent():
        helper = LlmAgent(name="helper", model=scripted("helper here", model="helper-model"))
        return LlmAgent(
            name="root",
            model=scripted(
                call(name="remember", args={"key": "color", "value": "red"}),
                call(name="remember", args={"key": "user:name", "value": "ann"}),
                call(name="note", args={"name": "a.txt", "text": "v0"}),
                "ok1",
                call(name="remember", args={"key": "color", "value": "blue"}),
                call(name="remember", args={"key": "size", "value": "big"}),
                call(name="remember", args={"key": "app:flag", "value": "on"}),
                call(name="note", args={"name": "a.txt", "text": "v1"}),
                call(name="note", args={"name": "b.txt", "text": "new"}),
                call(name="note", args={"name": "user:u.txt", "text": "mine"}),
                call(name="transfer_to_agent", args={"agent_name": "helper"}),
                "ok3",
                "ok4",
                model="root-model",
            ),
            instruction="Keep notes.",
            tools=[remember, note],
            sub_agents=[helper],
        )

    return agent


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        if "rewind" in record.getMessage():
            self.messages.append(record.getMessage())


async def _turn(runner, session_id, text, record, label):
    events = []
    try:
        async for event in runner.run_async(
            user_id="u", session_id=session_id, new_message=types.UserContent(text)
        ):
            events.append(event)
    except Exception as error:
        record(f"{label}: raised", error)
    record(label, events)
    return events[0].invocation_id if events else None


async def _artifacts(runner, session_id, record, label):
    service = runner.artifact_service
    where = dict(app_name=runner.app_name, user_id="u", session_id=session_id)
    record(f"{label}: keys", await service.list_artifact_keys(**where))
    for name in ("a.txt", "b.txt", "user:u.txt"):
        part = await service.load_artifact(filename=name, **where)
        versions = await service.list_versions(filename=name, **where)
        record(f"{label}: {name}", {"loaded": part, "versions": versions})


async def _rewind(runner, session_id, invocation_id, record, label, **options):
    try:
        record(
            label,
            await runner.rewind_async(
                user_id="u",
                session_id=session_id,
                rewind_before_invocation_id=invocation_id,
                **options,
            ),
        )
    except Exception as error:
        record(f"{label}: raised", error)


async def _pass(agent, artifacts, record, runner_options, label):
    sessions = InMemorySessionService()
    runner = Runner(
        app_name="notes",
        agent=agent,
        session_service=sessions,
        artifact_service=artifacts,
        **runner_options,
    )
    warnings = _Warnings()
    logging.getLogger().addHandler(warnings)
    try:
        session = await sessions.create_session(app_name="notes", user_id="u")
        where = dict(app_name="notes", user_id="u", session_id=session.id)
        first = await _turn(runner, session.id, "one", record, f"{label} turn 1")
        second = await _turn(runner, session.id, "two", record, f"{label} turn 2")
        await _artifacts(runner, session.id, record, f"{label} before")
        # (model_construct: ours refuses get_session_config at construction, for run_async)
        config = RunConfig.model_construct(get_session_config=GetSessionConfig(num_recent_events=1))
        await _rewind(runner, session.id, second, record, f"{label} rewind 2", run_config=config)
        record(f"{label} rewound", await sessions.get_session(**where))
        await _artifacts(runner, session.id, record, f"{label} rewound")
        await _turn(runner, session.id, "three", record, f"{label} turn 3")
        await _rewind(runner, session.id, first, record, f"{label} rewind 1")
        record(f"{label} rewound twice", await sessions.get_session(**where))
        await _artifacts(runner, session.id, record, f"{label} rewound twice")
        await _turn(runner, session.id, "four", record, f"{label} turn 4")
        await _rewind(runner, session.id, "e-nope", record, f"{label} unknown id")
        await _rewind(runner, "missing", first, record, f"{label} missing session")
        record(f"{label} final", await sessions.get_session(**where))
        record(f"{label} warnings", warnings.messages)
    finally:
        logging.getLogger().removeHandler(warnings)
        await runner.close()


async def scenario(agent, record, runner_options):
    await _pass(agent(), InMemoryArtifactService(), record, runner_options, "memory")
    folder = tempfile.mkdtemp()
    try:
        await _pass(agent(), FileArtifactService(folder), record, runner_options, "file")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
