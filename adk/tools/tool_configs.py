"""A tool in an Agent Config YAML file: mirrors `google.adk.tools.tool_configs`.

Runs on: process side (read when an app's YAML config is loaded).

`tools:` entries name an ADK built-in tool (`exit_loop`), or a tool instance,
a tool class, a function returning a tool, or a plain function by its fully
qualified name; `args` go to a tool class's `from_config` or to the function.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class BaseToolConfig(BaseModel):
    """Base of the configs a tool class reads its YAML `args` into."""

    model_config = ConfigDict(extra="forbid")


class ToolArgsConfig(BaseModel):
    """A tool entry's `args`: free key-value pairs."""

    model_config = ConfigDict(extra="allow")


class ToolConfig(BaseModel):
    """One entry of an agent's `tools:`."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        description="A built-in tool's name (`exit_loop`, `AgentTool`) or a fully"
        " qualified name (`my_package.my_module.my_tool`)."
    )
    args: ToolArgsConfig | None = Field(default=None, description="The args for the tool.")
