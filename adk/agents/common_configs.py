"""The references an Agent Config YAML file makes: mirrors `google.adk.agents.common_configs`.

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator


class CodeConfig(BaseModel):
    """Names a Python object (a function, a variable or a class) by its dotted path.

    Only a name: YAML passes no constructor arguments; build a configured object
    in Python and name it here.
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    """The object's fully qualified name, e.g. `my_app.callbacks.log_request`
    (for tools, a bare name such as `exit_loop` is an ADK built-in tool)."""


class AgentRefConfig(BaseModel):
    """A sub-agent: another YAML file (`config_path`) or an agent in code (`code`)."""

    model_config = ConfigDict(extra="forbid")

    config_path: str | None = None
    """The sub-agent's YAML file, relative to the file that refers to it."""

    code: str | None = None
    """The fully qualified name of an agent instance, e.g. `my_app.agents.helper`."""

    @model_validator(mode="after")
    def validate_exactly_one_field(self) -> AgentRefConfig:
        if self.code is not None and self.config_path is not None:
            raise ValueError("Only one of `code` or `config_path` should be provided")
        if self.code is None and self.config_path is None:
            raise ValueError("Exactly one of `code` or `config_path` must be provided")
        return self
