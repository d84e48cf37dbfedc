"""LoopAgent's YAML schema: mirrors `google.adk.agents.loop_agent_config`.

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

import warnings

from pydantic import ConfigDict, Field
from typing_extensions import deprecated

from .base_agent_config import _DEPRECATED, BaseAgentConfig

with warnings.catch_warnings():  # subclassing a deprecated class warns; using it should
    warnings.simplefilter("ignore", DeprecationWarning)

    @deprecated(_DEPRECATED.format("LoopAgentConfig"))
    class LoopAgentConfig(BaseAgentConfig):
        """The keys a LoopAgent's YAML takes."""

        model_config = ConfigDict(extra="forbid")

        agent_class: str = Field(
            default="LoopAgent",
            description="The value is used to uniquely identify the LoopAgent class.",
        )
        max_iterations: int | None = Field(
            default=None, description="Optional. LoopAgent.max_iterations."
        )
