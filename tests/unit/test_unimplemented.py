"""What durable-adk does not implement yet is never accepted and silently ignored:
it raises NotImplementedError naming it, at the construction that would drop it.
The names still import as in google.adk.

Runs on: test process only.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import pydantic
import pytest
from google.genai import types

from adk import Agent, LoopAgent, SequentialAgent
from adk.agents.run_config import RunConfig, StreamingMode
from adk.apps import App, ResumabilityConfig
from adk.artifacts import InMemoryArtifactService
from adk.memory import InMemoryMemoryService
from adk.models import Gemini
from adk.runners import InMemoryRunner, Runner
from adk.sessions.state import State
from adk.tools import (
    google_search,
    load_artifacts,
    load_memory,
    preload_memory,
    url_context,
)
from adk.tools.agent_tool import AgentTool
from adk.tools.base_tool import BaseTool
from adk.tools.base_toolset import BaseToolset
from adk.workflow import START, FunctionNode, Node, RetryConfig, Workflow, node


def agent() -> Agent:
    return Agent(name="a", model="gemini-2.5-flash")


class _Toolset(BaseToolset):
    async def get_tools(self, readonly_context: Any = None) -> list[BaseTool]:
        return []


class _TimedAgentTool(AgentTool):
    """As adk-python's agent_tool_resilience sample: wraps the agent's run."""

    async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
        return await super().run_async(args=args, tool_context=tool_context)


def _spec_with(tool: BaseTool) -> object:
    from activities._spec import build_spec
    from adk.plugins.plugin_manager import PluginManager

    return build_spec(Agent(name="root", model="gemini-2.5-flash", tools=[tool]), PluginManager())


def _step(node_input: str) -> str:
    return node_input


def _other(node_input: str) -> str:
    return node_input


class _Schema(pydantic.BaseModel):
    x: int = 0


# (what is built, the text the error must name)
CASES: list[tuple[Callable[[], object], str]] = [
    (lambda: Agent(name="a", mode="task"), "LlmAgent(mode=...)"),
    (lambda: Agent(name="a", parallel_worker=True), "parallel_worker"),
    (lambda: Agent(name="a", timeout=5.0), "LlmAgent(timeout=...)"),
    (lambda: Agent(name="a", rerun_on_resume=True), "rerun_on_resume"),
    (lambda: SequentialAgent(name="s", output_schema=dict), "SequentialAgent(output_schema=...)"),
    (lambda: LoopAgent(name="l", retry_config=RetryConfig()), "LoopAgent(retry_config=...)"),
    (lambda: App(name="app", root_agent=agent(), context_cache_config=object()), "context_cache"),
    (
        lambda: Runner(app_name="app", agent=agent(), credential_service=object()),
        "Runner(credential_service=...)",
    ),
    (
        lambda: Runner(
            node=Workflow(name="wf", edges=[(START, _step, _other)], state_schema=_Schema)
        ),
        "Running a Workflow root ('wf') with Workflow(state_schema=...)",
    ),
    (
        lambda: Runner(
            app=App(
                name="app", root_agent=Workflow(name="wf", edges=[(START, _step, Agent(name="a"))])
            )
        ),
        "Running a Workflow root ('wf') with the agent node 'a'",
    ),
    (lambda: node(_step, parallel_worker=True), "node(..., parallel_worker=True)"),
    (lambda: Node(name="n", parallel_worker=True), "Node(parallel_worker=True)"),
    (
        lambda: FunctionNode(func=_step, require_confirmation=True, rerun_on_resume=True),
        "FunctionNode(require_confirmation=...)",
    ),
    (
        lambda: FunctionNode(func=_step, auth_config=object(), rerun_on_resume=True),
        "FunctionNode(auth_config=...)",
    ),
    (
        lambda: FunctionNode(func=_step, parameter_binding="node_input"),
        "FunctionNode(parameter_binding='node_input')",
    ),
    (lambda: Workflow(name="w", edges=[(START, BaseTool(name="t", description="d"))]), "tool"),
    (lambda: RunConfig(streaming_mode=StreamingMode.SSE), "streaming_mode"),
    (lambda: Gemini(retry_options=types.HttpRetryOptions(attempts=3)), "Gemini(retry_options"),
    (lambda: Gemini(base_url="http://127.0.0.1:1"), "Gemini(base_url"),
    (lambda: State({}, {}, schema=object()), "State(schema=...)"),
    (
        lambda: BaseTool(name="t", description="d", behavior=types.Behavior.NON_BLOCKING),
        "behavior",
    ),
    (lambda: _spec_with(_TimedAgentTool(agent())), "_TimedAgentTool.run_async"),
    (lambda: InMemoryRunner(agent=agent(), run_worker=False).run_live(), "Runner.run_live"),
]


@pytest.mark.parametrize(("build", "named"), CASES, ids=[named for _, named in CASES])
def test_an_unimplemented_setting_raises_naming_it(build: Callable[[], object], named: str):
    # Runner(plugins=...) is deprecated in google.adk 2.13: it warns first, as there
    with pytest.warns(DeprecationWarning) if named == "plugins" else nullcontext():
        with pytest.raises(NotImplementedError, match="not supported yet") as raised:
            build()
    assert named in str(raised.value)


def test_the_defaults_and_the_implemented_values_construct() -> None:
    """The same classes with google.adk's defaults (or what is implemented) build fine."""
    Agent(name="a", mode="chat", rerun_on_resume=False, planner=None, code_executor=None)
    App(name="app", root_agent=agent(), plugins=[], resumability_config=ResumabilityConfig())
    App(
        name="app",
        root_agent=agent(),
        resumability_config=ResumabilityConfig(is_resumable=True),
    )
    RunConfig(max_llm_calls=3, streaming_mode=StreamingMode.NONE)
    Gemini(model="gemini-2.5-flash")
    Runner(app_name="app", agent=agent(), artifact_service=None, memory_service=None)
    Runner(app_name="app", agent=agent(), artifact_service=InMemoryArtifactService())
    Agent(name="a", tools=[load_artifacts])
    RunConfig(save_input_blobs_as_artifacts=True)
    in_memory = InMemoryRunner(agent())
    assert in_memory.app_name == "InMemoryRunner"
    assert isinstance(in_memory.artifact_service, InMemoryArtifactService)  # as google.adk's
    assert isinstance(in_memory.memory_service, InMemoryMemoryService)
    assert _Toolset(tool_filter=["x"]).tool_filter == ["x"]
    assert _Toolset(tool_name_prefix="p").tool_name_prefix == "p"


def test_module_level_instances_import_as_in_google_adk() -> None:
    assert [t.name for t in (google_search, url_context, load_memory, preload_memory)] == [
        "google_search",
        "url_context",
        "load_memory",
        "preload_memory",
    ]
    assert load_artifacts.name == "load_artifacts"


def test_runner_resolves_app_agent_and_node_as_google_adk() -> None:
    with pytest.raises(ValueError, match="app_name is required when agent is provided"):
        Runner(agent=agent())
    with pytest.raises(ValueError, match="Only one of app, agent, or node may be provided"):
        Runner(app=App(name="app", root_agent=agent()), agent=agent())
    with pytest.raises(ValueError, match="One of app, agent, or node must be provided"):
        Runner()
    with pytest.raises(ValueError, match="When app is provided, plugins should not be"):
        Runner(app=App(name="app", root_agent=agent()), plugins=[])


def test_app_names_follow_google_adks_rule() -> None:
    for bad in ("1app", "_app", "my app", "user"):
        with pytest.raises(ValueError):
            App(name=bad, root_agent=agent())
    assert App(name="my-app_2", root_agent=agent()).name == "my-app_2"
