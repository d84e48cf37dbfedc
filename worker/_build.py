"""Builds a Temporal worker for a set of apps (used by `python -m worker` and the Runner).

Runs on: process side.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from temporalio.client import Client
from temporalio.envconfig import ClientConfig
from temporalio.worker import UnsandboxedWorkflowRunner, Worker, WorkflowRunner
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

from activities import AdkActivities, MemoryScope, build_spec
from activities._spec import agent_kind
from adk.agents import _orchestrating
from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.apps.app import App, plugin_manager_of, refuse_graph_root
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.memory.base_memory_service import BaseMemoryService
from adk.sessions.base_session_service import BaseSessionService
from client._sealing import sealing_client, sealing_converter
from workflows import WORKFLOWS, _specs
from workflows.names import SEARCH_ATTRIBUTES

# In strict mode, passed through the sandbox (imported once, shared), each for a reason:
# - adk: events/specs are pydantic models with no I/O (user code never runs in
#   the sandbox: it runs in activities);
# - google.genai: its types are pydantic models, and importing the package pulls
#   in its HTTP client, which is not sandbox-safe to re-import;
# - pydantic, pydantic_core: heavy and pure;
# - workflows._specs: the process's agent trees by digest (filled by the worker).
# The rest of our `workflows` package is not: strict mode re-imports it for every
# run, so the sandbox checks its code (a passed-through module is not checked at all).
PASSTHROUGH = ("adk", "google.genai", "pydantic", "pydantic_core", "workflows._specs")

SANDBOX_MODES = ("off", "strict")

INLINE_ENV = "DURABLE_ADK_INLINE_WORKFLOW_AGENTS"


def env_flag(name: str) -> bool:
    """A yes/no environment variable: 1/true/yes/on or 0/false/no/off (or unset)."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{name} must be 1 or 0 (true/false, yes/no, on/off), not {value!r}.")


def workflow_runner(mode: str | None = None) -> WorkflowRunner:
    """How the workflows run: `off` (the default) or `strict` (Temporal's sandbox).

    `mode` defaults to $DURABLE_ADK_WORKFLOW_SANDBOX, else `off`.

    Off, because the sandbox guards workflow code against nondeterminism, and
    the only workflow code here is durable-adk's own: no user code runs in a
    workflow (tools, callbacks and models run in activities). Its determinism is
    enforced by tests/test_architecture.py (no clocks, uuid4, random, I/O or env in
    `workflows/`), by the replay tests, and by the test suite's runs in strict
    mode. The sandbox costs a re-import of the workflow modules and a sandboxed
    serialization context for every payload: about a quarter of the worker's
    CPU per invocation (bench/history_and_overhead.py).

    `strict` runs the workflows in the sandbox and re-imports `workflows/` for
    every run, so a nondeterministic call there fails the workflow task: use it
    when changing workflow code.
    """
    chosen = (mode or os.environ.get("DURABLE_ADK_WORKFLOW_SANDBOX") or "off").lower()
    if chosen not in SANDBOX_MODES:
        raise ValueError(
            f"DURABLE_ADK_WORKFLOW_SANDBOX must be one of {', '.join(SANDBOX_MODES)},"
            f" not {chosen!r}."
        )
    if chosen == "off":
        return UnsandboxedWorkflowRunner()
    return SandboxedWorkflowRunner(
        restrictions=SandboxRestrictions.default.with_passthrough_modules(*PASSTHROUGH)
    )


def build_worker(
    client: Client,
    *,
    apps: Mapping[str, App],
    session_service: BaseSessionService,
    task_queue: str,
    artifact_service: BaseArtifactService | None = None,
    memory_service: BaseMemoryService | None = None,
    inline_workflow_agents: bool | None = None,
    **worker_options: Any,
) -> Worker:
    """inline_workflow_agents (default: $DURABLE_ADK_INLINE_WORKFLOW_AGENTS, else off):
    the invocations this worker begins run a Sequential, Parallel or Loop agent that is
    a step of another one inline, in the workflow of its parent (README, *Multi-agent
    cost*); each invocation keeps the choice it began with."""
    if inline_workflow_agents is None:
        inline_workflow_agents = env_flag(INLINE_ENV)
    activities = AdkActivities(
        apps, session_service, artifact_service, inline_workflow_agents=inline_workflow_agents
    )
    publish_apps(task_queue, apps)
    custom = [
        a for app in apps.values() for a in all_agents(app.root_agent) if agent_kind(a) == "custom"
    ]
    if custom:
        from ._guard import install

        # worker/_guard.py: their nondeterminism fails clearly
        install(_module_dirs(type(agent) for agent in custom))
    return Worker(
        sealing_client(client),  # `temp:` state sealed in history (client/_sealing.py)
        task_queue=task_queue,
        workflows=WORKFLOWS,
        activities=activities.all(),
        workflow_runner=worker_options.pop("workflow_runner", None) or workflow_runner(),
        # tools and callbacks find the worker's memory service in their contexts
        interceptors=[MemoryScope(memory_service), *worker_options.pop("interceptors", [])],
        **worker_options,
    )


def publish_apps(task_queue: str, apps: Mapping[str, App]) -> None:
    """What the workflows of `task_queue` find in this process: the apps' agent trees
    (child workflows name theirs by digest, workflows/_specs.py) and the agent objects
    (a custom agent's orchestration runs on them). A worker publishes its own; publish
    yours before replaying histories with Temporal's Replayer."""
    for app in apps.values():
        refuse_graph_root(app.root_agent, app)
        if not isinstance(app.root_agent, BaseAgent):  # a Workflow: its begin records it
            continue
        _specs.remember(build_spec(app.root_agent, plugin_manager_of(app)).model_dump_json())
    _orchestrating.publish_apps(task_queue, apps)


def _module_dirs(classes: Iterable[type]) -> set[str]:
    """The folders of the modules defining these classes (their files, where known)."""
    files = (getattr(sys.modules.get(cls.__module__), "__file__", None) for cls in classes)
    return {str(Path(f).resolve().parent) for f in files if f}


SHUTDOWN_LIMIT_SECONDS = 10.0
"""How long a shutdown may take beyond the worker's graceful period."""


async def shut_down(worker: Worker, grace_seconds: float = 0.0) -> bool:
    """`worker.shutdown()`, bounded; False when it did not finish in time.

    Temporal Core's last shutdown step can hang after an activity was cancelled
    (seen here: `finalize_shutdown` never returned in a few of a hundred runs of
    a test that cancels a running tool; temporalio/sdk-rust#1537). Everything
    has stopped by then; an activity result that was not reported is retried by
    Temporal after its timeout. Callers log it and go on.
    """
    try:
        await asyncio.wait_for(worker.shutdown(), grace_seconds + SHUTDOWN_LIMIT_SECONDS)
    except TimeoutError:
        return False
    return True


DEFAULT_ADDRESS = "localhost:7233"


def connect_config(address: str | None = None, namespace: str | None = None) -> dict[str, Any]:
    """Temporal connection settings, the same for worker, client and Runner.

    `temporalio.envconfig`'s: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY
    (Temporal Cloud; implies TLS), TEMPORAL_TLS and TEMPORAL_TLS_* (mTLS), and the
    profiles of the Temporal config file (TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE);
    `address` and `namespace` (command-line flags) over them; localhost:7233 and
    `default` when nothing says. A config file that cannot be read raises ValueError.
    """
    try:
        config: dict[str, Any] = dict(ClientConfig.load_client_connect_config())
    except Exception as error:  # a malformed file, an unknown profile
        raise ValueError(f"Temporal client configuration: {error}") from error
    if address:
        config["target_host"] = address
    if namespace:
        config["namespace"] = namespace
    config.setdefault("target_host", DEFAULT_ADDRESS)
    config.setdefault("namespace", "default")
    return config


async def connect(address: str | None = None, namespace: str | None = None) -> Client:
    """Connect with `connect_config`'s settings and our data converter (`temp:` state
    sealed in history)."""
    config = connect_config(address, namespace)
    target = config.pop("target_host")
    return await Client.connect(target, data_converter=sealing_converter(), **config)


class SearchAttributesMissing(RuntimeError):
    pass


async def ensure_search_attributes(client: Client) -> list[str]:
    """Register our Keyword search attributes if missing; returns the names added.

    Works on the dev server; on a real cluster without permission the error
    says how to register them by hand.
    """
    from temporalio.api.enums.v1 import IndexedValueType
    from temporalio.api.operatorservice.v1 import (
        AddSearchAttributesRequest,
        ListSearchAttributesRequest,
    )

    namespace = client.namespace
    listed = await client.operator_service.list_search_attributes(
        ListSearchAttributesRequest(namespace=namespace)
    )
    missing = [k.name for k in SEARCH_ATTRIBUTES if k.name not in listed.custom_attributes]
    if not missing:
        return []
    try:
        await client.operator_service.add_search_attributes(
            AddSearchAttributesRequest(
                namespace=namespace,
                search_attributes={
                    name: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD for name in missing
                },
            )
        )
    except Exception as error:
        commands = "; ".join(
            f"temporal operator search-attribute create --namespace {namespace}"
            f" --name {name} --type Keyword"
            for name in missing
        )
        raise SearchAttributesMissing(
            f"Search attributes {', '.join(missing)} are not registered and could not be"
            f" added ({error}). Register them: {commands}"
        ) from error
    return missing
