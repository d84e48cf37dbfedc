"""RetryConfig: how a workflow node is retried (google.adk.workflow.RetryConfig).

Runs on: both sides (pure data).
"""

from __future__ import annotations

from typing import Any

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
