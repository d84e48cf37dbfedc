"""What LlmAgent refuses (or warns about) at construction, as google-adk 2.13 does.

Runs on: process side (pure: agents are built in user apps and the worker).

The messages are 2.13's, word for word: users catch and match them, and an app
that 2.13 refuses must not start here.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from google.genai import types

if TYPE_CHECKING:
    from .llm_agent import LlmAgent

OWNED_BY_AGENT: Mapping[str, str] = {
    "system_instruction": "instruction",
    "response_schema": "output_schema",
    "base_url": "model",
}
"""A GenerateContentConfig setting (or transport setting) -> the LlmAgent field for it."""

CONFIG_FIELDS: Mapping[str, str] = {
    key: name
    for name, field in types.GenerateContentConfig.model_fields.items()
    for key in (name, field.alias)
    if key is not None
}
"""GenerateContentConfig's field names and camelCase aliases -> the field name."""


def refuse_agents_as_tools(data: Any) -> Any:
    """`tools=[an_agent]`: an agent is a sub-agent (or wrapped in an AgentTool)."""
    from .base_agent import BaseAgent

    if isinstance(data, dict) and data.get("tools"):
        for tool in data["tools"]:  # (a non-iterable: TypeError, as in 2.13)
            if isinstance(tool, BaseAgent):
                raise ValueError(
                    f"Agent '{tool.name}' cannot be used directly as a tool. Agents"
                    " should be invoked as sub-agents."
                )
    return data


def refuse_config_kwargs(agent_fields: set[str], data: Any) -> Any:
    """GenerateContentConfig settings given as LlmAgent keyword arguments: one
    ValueError that says where each belongs (unknown keys and a missing name
    included). Unknown keys alone are left to pydantic (extra_forbidden), unless
    the name is missing too."""
    if not isinstance(data, dict):
        return data
    base_urls: list[str] = []
    redirected: list[tuple[str, str]] = []
    misplaced: list[str] = []
    unknown: list[str] = []
    for key, value in data.items():
        if key in agent_fields:  # `tools` is one of both
            continue
        if key in ("http_options", "httpOptions") and _has_base_url(value):
            base_urls.append(key)
            continue
        field = CONFIG_FIELDS.get(key)
        owner = OWNED_BY_AGENT.get(key) or OWNED_BY_AGENT.get(field or "")
        if owner is not None:
            redirected.append((key, owner))
        elif field is None:
            unknown.append(key)
        elif field not in misplaced:
            misplaced.append(field)
    if not (base_urls or redirected or misplaced or (unknown and not data.get("name"))):
        return data
    parts = [] if data.get("name") else ["Field 'name' is required."]
    parts += [
        "Base URL is a transport setting and must be set via"
        f" LlmAgent.model, not via LlmAgent({key}=...)."
        for key in base_urls
    ]
    if redirected:
        parts.append(
            ". ".join(
                f"`{key}` must be set via LlmAgent.{owner}, not via LlmAgent({key}=...)"
                for key, owner in redirected
            )
            + "."
        )
    if misplaced:
        one = len(misplaced) == 1
        parts.append(
            f"{', '.join(misplaced)} {'is a' if one else 'are'} GenerateContentConfig"
            f" field{'' if one else 's'}. Pass generate_content_config="
            f"types.GenerateContentConfig({', '.join(f'{f}=...' for f in misplaced)})"
            " instead."
        )
    if unknown:
        parts.append(f"Extra inputs are not permitted: {', '.join(unknown)}.")
    raise ValueError(" ".join(parts))


def checked_config(config: types.GenerateContentConfig | None) -> types.GenerateContentConfig:
    """The agent's generate_content_config (None given: an empty one), refusing
    the settings that LlmAgent's own fields own."""
    if not config:
        return types.GenerateContentConfig()
    if config.tools:
        raise ValueError(
            "All tools must be set via LlmAgent.tools, not via"
            " generate_content_config.tools. Move your tools to the"
            " LlmAgent(tools=[...]) parameter."
        )
    if config.system_instruction:
        raise ValueError(
            "System instruction must be set via LlmAgent.instruction, not"
            " via generate_content_config.system_instruction. Move your"
            ' instruction to LlmAgent(instruction="...").'
        )
    if config.response_schema:
        raise ValueError(
            "Response schema must be set via LlmAgent.output_schema, not"
            " via generate_content_config.response_schema. Move your"
            " schema to LlmAgent(output_schema=...)."
        )
    if config.http_options and config.http_options.base_url:
        raise ValueError(
            "Base URL is a transport setting and must be set on the model"
            " or its client, not via"
            " LlmAgent.generate_content_config.http_options.base_url."
        )
    return config


def warn_two_thinking_configs(agent: LlmAgent) -> None:
    """A thinking_config in generate_content_config and a BuiltInPlanner's: the
    planner's wins (a UserWarning, pointing at the agent's constructor call)."""
    from ..planners.built_in_planner import BuiltInPlanner

    config = agent.generate_content_config
    planner = agent.planner
    if (
        config is not None
        and config.thinking_config is not None
        and isinstance(planner, BuiltInPlanner)
        and planner.thinking_config is not None
    ):
        warnings.warn(
            "Both `thinking_config` in `generate_content_config` and a "
            "planner with `thinking_config` are provided. The "
            "planner's configuration will take precedence.",
            UserWarning,
            stacklevel=4,  # where 2.13's points: pydantic's __init__
        )


def _has_base_url(value: Any) -> bool:
    if isinstance(value, dict):
        return bool(value.get("base_url") or value.get("baseUrl"))
    return bool(getattr(value, "base_url", None))
