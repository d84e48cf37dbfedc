"""ParallelAgent's YAML schema: mirrors `google.adk.agents.parallel_agent_config`.

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

import warnings

from pydantic import ConfigDict, Field
from typing_extensions import deprecated

from .base_agent_config import _DEPRECATED, BaseAgentConfig

with warnings.catch_warnings():  # subclassing a deprecated class warns; using it should
    warnings.simplefilter("ignore", DeprecationWarning)

    @deprecated(_DEPRECATED.format("ParallelAgentConfig"))
    class ParallelAgentConfig(BaseAgentConfig):
        """The keys a ParallelAgent's YAML takes."""

        model_config = ConfigDict(extra="forbid")

        agent_class: str = Field(
            default="ParallelAgent",
            description="The value is used to uniquely identify the ParallelAgent class.",
        )
