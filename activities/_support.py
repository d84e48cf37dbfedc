"""Shared activity plumbing: app/agent lookup, heartbeats, error classification.

Runs on: activity side (worker process).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping
from datetime import timedelta

from temporalio import activity
from temporalio.exceptions import ApplicationError

from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from adk.apps.app import App
from adk.models._errors import classify_model_error


def find_app(apps: Mapping[str, App], app_name: str) -> App:
    app = apps.get(app_name)
    if app is None:
        served = ", ".join(sorted(apps)) or "none"
        raise ApplicationError(
            f"Unknown app {app_name!r}: this worker serves {served}. Start a worker with"
            f" `python -m worker <folder of {app_name}>`.",
            type="UnknownApp",
            non_retryable=True,
        )
    return app


def find_agent(app: App, agent_name: str) -> BaseAgent:
    agent = next((a for a in all_agents(app.root_agent) if a.name == agent_name), None)
    if agent is None:
        raise ApplicationError(
            f"Agent {agent_name!r} is not in app {app.name!r} any more (was the app redeployed"
            " while the invocation ran?).",
            type="UnknownAgent",
            non_retryable=True,
        )
    return agent


def find_llm_agent(app: App, agent_name: str) -> LlmAgent:
    agent = find_agent(app, agent_name)
    if not isinstance(agent, LlmAgent):
        raise ApplicationError(
            f"Agent {agent_name!r} is a {type(agent).__name__}, not an LlmAgent.",
            type="UnknownAgent",
            non_retryable=True,
        )
    return agent


@contextlib.asynccontextmanager
async def heartbeating() -> AsyncIterator[None]:
    """Heartbeat in the background so a dead worker's attempt is retried quickly.

    The first beat comes after one interval, so a fast step sends none; a timer,
    not a task, so a fast step costs next to nothing.
    """
    timeout = activity.info().heartbeat_timeout
    if not timeout:
        yield
        return
    interval = max(timeout / 3, timedelta(milliseconds=200)).total_seconds()
    loop = asyncio.get_running_loop()
    timer: asyncio.TimerHandle | None = None

    def beat() -> None:  # runs in the activity's context (call_later copies it)
        nonlocal timer
        activity.heartbeat()
        timer = loop.call_later(interval, beat)

    timer = loop.call_later(interval, beat)
    try:
        yield
    finally:
        timer.cancel()


@contextlib.contextmanager
def user_code(what: str) -> Iterator[None]:
    """An exception in app code (instructions, callbacks) is a bug to fix, not to retry."""
    try:
        yield
    except ApplicationError:
        raise
    except Exception as error:
        raise ApplicationError(
            f"{type(error).__name__} while {what}: {error}",
            type=type(error).__name__,
            non_retryable=True,
        ) from error


def model_error(exc: BaseException, model: str) -> ApplicationError:
    """A provider error as a Temporal error: transient ones retry, the rest fail at once."""
    info = classify_model_error(exc)
    return ApplicationError(
        f"{info.message} (model {model})",
        type=info.error_type,
        non_retryable=not info.retryable,
        next_retry_delay=timedelta(seconds=info.retry_after) if info.retry_after else None,
    )
