"""The YAML schema of any agent, discriminated by `agent_class`: mirrors
`google.adk.agents.agent_config`.

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any, Union

from pydantic import Discriminator, RootModel, Tag
from typing_extensions import deprecated

from .base_agent_config import BaseAgentConfig
from .llm_agent_config import LlmAgentConfig
from .loop_agent_config import LoopAgentConfig
from .parallel_agent_config import ParallelAgentConfig
from .sequential_agent_config import SequentialAgentConfig

_ADK_AGENT_CLASSES: set[str] = {"LlmAgent", "LoopAgent", "ParallelAgent", "SequentialAgent"}


def agent_config_discriminator(v: Any) -> str:
    """The union's tag: a built-in class's own, `BaseAgent` for any other class."""
    if isinstance(v, dict):
        agent_class: str = v.get("agent_class", "LlmAgent")
        return agent_class if agent_class in _ADK_AGENT_CLASSES else "BaseAgent"
    raise ValueError(f"Invalid agent config: {v}")


ConfigsUnion = Annotated[
    Union[
        Annotated[LlmAgentConfig, Tag("LlmAgent")],
        Annotated[LoopAgentConfig, Tag("LoopAgent")],
        Annotated[ParallelAgentConfig, Tag("ParallelAgent")],
        Annotated[SequentialAgentConfig, Tag("SequentialAgent")],
        Annotated[BaseAgentConfig, Tag("BaseAgent")],
    ],
    Discriminator(agent_config_discriminator),
]

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)

    @deprecated(
        "AgentConfig is deprecated and will be removed in future versions. Config is now"
        " loaded via reflection so the separate config class is no longer needed."
    )
    class AgentConfig(RootModel[ConfigsUnion]):
        """The config for the YAML schema to create an agent."""
