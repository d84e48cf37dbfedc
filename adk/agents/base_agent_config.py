"""The YAML schema every agent config shares: mirrors `google.adk.agents.base_agent_config`.

Runs on: process side (read when an app's YAML config is loaded).

Deprecated in google-adk 2.13 as in ours (constructing one warns): the loader
maps YAML keys onto the agent class's fields by reflection, and validates them
against the class's `config_type` first, so a misspelt key is an error.
"""

from __future__ import annotations

from typing import Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import deprecated

from .common_configs import AgentRefConfig, CodeConfig

TBaseAgentConfig = TypeVar("TBaseAgentConfig", bound="BaseAgentConfig")

_DEPRECATED = (
    "{} is deprecated and will be removed in future versions. Config is now loaded via"
    " reflection so the separate config class is no longer needed."
)


@deprecated(_DEPRECATED.format("BaseAgentConfig"))
class BaseAgentConfig(BaseModel):
    """The keys any agent's YAML takes; a custom agent class's config may add its own."""

    model_config = ConfigDict(extra="allow")

    agent_class: Union[Literal["BaseAgent"], str] = Field(
        default="BaseAgent", description="Required. The class of the agent."
    )
    name: str = Field(description="Required. The name of the agent.")
    description: str = Field(default="", description="Optional. The description of the agent.")
    sub_agents: list[AgentRefConfig] | None = Field(
        default=None, description="Optional. The sub-agents of the agent."
    )
    before_agent_callbacks: list[CodeConfig] | None = Field(
        default=None, description="Optional. The before_agent_callbacks of the agent."
    )
    after_agent_callbacks: list[CodeConfig] | None = Field(
        default=None, description="Optional. The after_agent_callbacks of the agent."
    )
