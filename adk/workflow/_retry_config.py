"""RetryConfig: how a workflow node is retried (google.adk.workflow.RetryConfig).

Runs on: both sides (pure data).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field, field_validator

from ._errors import WorkflowConfigurationError


class RetryConfig(BaseModel):
    """Retry policy of a node; None fields take 2.13's defaults when used."""

    max_attempts: int | None = Field(
        default=None,
        description="Maximum number of attempts, including the original request. If 0 or 1,"
        " it means no retries. If not specified, default to 5.",
    )
    initial_delay: float | None = Field(
        default=None,
        description="Initial delay before the first retry, in fractions of a second. If not"
        " specified, default to 1.0 second.",
    )
    max_delay: float | None = Field(
        default=None,
        description="Maximum delay between retries, in fractions of a second. If not"
        " specified, default to 60.0 seconds.",
    )
    backoff_factor: float | None = Field(
        default=None,
        description="Multiplier by which the delay increases after each attempt. If not"
        " specified, default to 2.0.",
    )
    jitter: float | None = Field(
        default=None,
        description="Randomness factor for the delay. If not specified, default to 1.0."
        " Otherwise use 0.0 to remove randomness.",
    )
    exceptions: list[str | type[BaseException]] | None = Field(
        default=None,
        description="Exceptions to retry on: class names or classes (kept as names)."
        " None means retry on all exceptions.",
    )

    @field_validator("exceptions", mode="before")
    @classmethod
    def _normalize_exceptions(cls, value: list[Any] | None) -> list[str] | None:
        if value is None:
            return None
        names = []
        for item in value:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, type) and issubclass(item, BaseException):
                names.append(item.__name__)
            else:
                raise WorkflowConfigurationError(
                    "exceptions must contain exception class names (str) or"
                    f" exception classes, got {type(item).__name__}: {item!r}"
                )
        return names


class RetryFields(Protocol):
    """What the retry rules read: a RetryConfig, or the workflow's copy of one."""

    @property
    def max_attempts(self) -> int | None: ...
    @property
    def initial_delay(self) -> float | None: ...
    @property
    def max_delay(self) -> float | None: ...
    @property
    def backoff_factor(self) -> float | None: ...
    @property
    def jitter(self) -> float | None: ...
    @property
    def exceptions(self) -> Sequence[Any] | None: ...


def should_retry(config: RetryFields | None, attempt: int, class_names: Sequence[str]) -> bool:
    """google-adk 2.13's `_should_retry_node`: attempt `attempt` (1-based) failed with
    an exception whose classes (its MRO but `object`) are `class_names`."""
    if config is None:
        return False
    max_attempts = config.max_attempts if config.max_attempts is not None else 5
    if attempt >= max_attempts:
        return False
    if config.exceptions is not None and not set(class_names) & set(config.exceptions):
        return False
    return True


def retry_delay(
    config: RetryFields | None, attempt: int, uniform: Callable[[float, float], float]
) -> float:
    """google-adk 2.13's `_get_retry_delay` after failed attempt `attempt` (1-based);
    `uniform(a, b)` is the random draw (the workflow's own random on our side)."""
    if config is None:
        return 1.0
    initial = config.initial_delay if config.initial_delay is not None else 1.0
    max_delay = config.max_delay if config.max_delay is not None else 60.0
    factor = config.backoff_factor if config.backoff_factor is not None else 2.0
    jitter = config.jitter if config.jitter is not None else 1.0
    delay = initial * factor ** max(0, (attempt or 1) - 1)
    if jitter > 0.0:
        # capped before the jitter, so the widest positive offset lands on max_delay
        delay = min(delay, max_delay / (1.0 + jitter))
        delay = max(0.0, delay + uniform(-jitter * delay, jitter * delay))
    return min(delay, max_delay)


def exception_class_names(error: BaseException) -> list[str]:
    """The names `RetryConfig.exceptions` is matched against: every class of the
    exception's MRO but `object` (so a configured class covers its subclasses)."""
    return [cls.__name__ for cls in type(error).__mro__ if cls is not object]
