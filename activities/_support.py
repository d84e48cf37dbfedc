"""Shared activity plumbing: app/agent lookup, heartbeats, error classification.

Runs on: activity side (worker process).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping
from datetime import timedelta
from typing import Any

from google.genai import errors as genai_errors
from pydantic import BaseModel
from temporalio import activity
from temporalio.exceptions import ApplicationError

from adk.activity_options import PayloadTooLargeError
from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from adk.apps.app import App
from adk.models._errors import classify_model_error, redact
from adk.tools._transient import TransientToolError, retry_available
from workflows import names
from workflows.contracts import SessionRef, StepRef
from workflows.errors import RaisedError, raised_error

PAYLOAD_LIMIT = 2 * 1024 * 1024
"""Temporal's default limit on one payload (an activity result). Over it, the server
refuses the result and the SDK fails the attempt as retryable (PayloadsTooLarge): the
call would run again, and again fail."""


def named_ref(ref: StepRef) -> None:
    """Fill in the session and invocation the workflow left out of `ref`: the id of the
    workflow that scheduled this activity names them (workflows.names.step_origin)."""
    if ref.session.session_id and ref.invocation_id:
        return
    workflow_id = activity.info().workflow_id or ""
    origin = names.step_origin(workflow_id)
    if origin is None:
        raise ApplicationError(
            f"The step of agent {ref.agent_name} names no session and its workflow id"
            f" {workflow_id!r} names none: it was not scheduled by durable-adk.",
            type="UnknownSession",
            non_retryable=True,
        )
    (app_name, user_id, session_id), invocation_id = origin
    if not ref.session.session_id:
        ref.session = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)
    if not ref.invocation_id and invocation_id is not None:
        ref.invocation_id = invocation_id


def retried() -> bool:
    """Whether this is a retry of an activity (an earlier attempt may have written)."""
    return activity.in_activity() and activity.info().attempt > 1


def last_attempt() -> bool:
    """Whether this activity attempt is the last its retry policy allows."""
    info = activity.info()
    policy = info.retry_policy
    return bool(policy and policy.maximum_attempts and info.attempt >= policy.maximum_attempts)


@contextlib.contextmanager
def transient_retries() -> Iterator[None]:
    """While attempts remain, a tool or toolset whose connection failed fails this
    attempt (TransientToolError), and Temporal retries it; the last attempt lets
    the tool do what google-adk does (an error result, a toolset left out)."""
    token = retry_available.set(not last_attempt())
    try:
        yield
    finally:
        retry_available.reset(token)


def transient_failure(error: TransientToolError) -> ApplicationError:
    """A lost connection as a retryable failure of this attempt."""
    return ApplicationError(str(error), type="TransientToolError", non_retryable=False)


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


def check_payload_size(output: BaseModel, what: str) -> None:
    """Fail at once, non-retryably, saying what to change, if `output` (the activity's
    result, as the data converter writes it) would exceed Temporal's payload limit.

    `what` names the producer, e.g. "Tool fetch of agent a"."""
    size = len(output.model_dump_json(exclude_none=True))
    if size <= PAYLOAD_LIMIT:
        return
    message = (
        f"{what} returned {size / 1e6:.1f} MB ({size:,} bytes as JSON), over Temporal's"
        f" payload limit of {PAYLOAD_LIMIT:,} bytes: it cannot be recorded, and running it"
        " again would not make it smaller. Return less (a summary, or a reference to data"
        " stored elsewhere, such as an artifact)."
    )
    raise raised_error(PayloadTooLargeError(message), message)


@contextlib.contextmanager
def user_code(what: str) -> Iterator[None]:
    """An exception in app code (instructions, callbacks) or an ADK rule fails at once,
    and reaches the caller as itself (class and message): a bug to fix, not to retry."""
    try:
        yield
    except ApplicationError:
        raise
    except TransientToolError as error:
        raise transient_failure(error) from None
    except Exception as error:
        raise raised(error, what) from None


def raised(error: BaseException, what: str, *, retryable: bool = False) -> ApplicationError:
    """`error` (raised while `what`) as the ApplicationError that carries it to the caller.

    `from None` where it is raised: the carried description is what the caller gets;
    the live exception as a cause would only repeat it in history."""
    return raised_error(error, f"{type(error).__name__} while {what}: {error}", retryable=retryable)


def _redacted(value: Any) -> Any:
    """Every string inside a JSON value redacted (not the JSON text: an escaped quote
    next to a key would break it)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


def model_error(exc: BaseException, model: str, *, final: bool = False) -> ApplicationError:
    """A provider error as a Temporal error: transient ones retry, the rest fail at once.

    A final one (not transient, or its retries spent) carries the exception itself, so
    the caller gets the model client's exception as google-adk raises it; its text is
    redacted like the message (it lands in history)."""
    info = classify_model_error(exc)
    message = f"{info.message} (model {model})"
    if info.retryable and not final:
        return ApplicationError(
            message,
            type=info.error_type,
            next_retry_delay=timedelta(seconds=info.retry_after) if info.retry_after else None,
        )
    carried = RaisedError.of(exc)
    carried.message = redact(carried.message)
    if isinstance(exc, genai_errors.APIError):  # rebuilt from (code, response json)
        carried.args = [exc.code, exc.details]
    if carried.args is not None:
        carried.args = _redacted(carried.args)
    # the Web UI tells the classification (ModelBadRequest, ...); the caller gets the class
    return carried.as_application_error(message, type=info.error_type)
