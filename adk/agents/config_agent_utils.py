"""Agent Config YAML: builds an agent tree from YAML files, as google-adk 2.13 does.

Runs on: process side (the worker loads an app's `root_agent.yaml` at start; a
script may call `from_config` itself). Mirrors `google.adk.agents.config_agent_utils`.

The rules (2.13's):

- `agent_class` (default `LlmAgent`) picks the class: a name from `adk.agents`
  or a fully qualified name of a BaseAgent subclass. The file is validated
  against the class's `config_type` first (an unknown key is pydantic's
  `extra_forbidden` error), then each key is mapped onto the field of that
  name: `<field>_code` names an object in code for `<field>` (`model_code`),
  `<x>_callbacks` sets `<x>_callback` (a list of code references);
  `sub_agents` are `config_path:` (a YAML file beside this one) or `code:`
  (an agent instance); `tools` are built-in names (`exit_loop`) or fully
  qualified names; schemas are code references.
- An LlmAgent without `model` inherits its nearest LlmAgent ancestor's, else
  `LlmAgent`'s default model (`LlmAgent.set_default_model`).
- References into the Python standard library are refused.

durable-adk reads a `google.adk.` prefix in any reference as `adk.`, so a
config written for google-adk loads unchanged. The errors are google-adk's
(same classes, same messages); each also records the file and the key it came
from, which `config_error_location` reads (the worker's one-line message).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import sys
import warnings
from typing import Any

from ..tools.tool_configs import ToolConfig
from . import _config_mapping as mapping
from .base_agent import BaseAgent
from .common_configs import AgentRefConfig, CodeConfig

logger = logging.getLogger("adk." + __name__)

__all__ = [
    "config_error_location",
    "from_config",
    "resolve_agent_reference",
    "resolve_callbacks",
    "resolve_code_reference",
    "resolve_fully_qualified_name",
]

# The standard library is refused as a whole (too much of it runs code it is
# handed), and so are modules that construct objects from data (yaml, ruamel)
# and a few removed from the standard library that can still be installed.
_BLOCKED_MODULES = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)
_BLOCKED_MODULES |= {
    "asynchat", "asyncore", "cgi", "commands", "crypt", "distutils", "imp", "mailcap",
    "nntplib", "pipes", "smtpd", "telnetlib", "uu", "_testcapi", "_testinternalcapi",
    "test", "ruamel", "yaml",
}  # fmt: skip


def from_config(config_path: str) -> BaseAgent:
    """The agent (with its sub-agents) a YAML config file declares.

    Raises:
      FileNotFoundError: the file does not exist.
      pydantic.ValidationError: a key the agent's schema does not take, or a value
        of the wrong type.
      ValueError: an unusable file or reference (empty file, unknown class,
        reference that does not resolve).
    """
    abs_path = os.path.abspath(config_path)
    if not os.path.exists(abs_path):
        raise FileNotFoundError(f"Config file not found: {abs_path}")
    with mapping.located(abs_path, None):
        data = _load_yaml(abs_path)
        agent_class = mapping.located_call(
            abs_path, "agent_class", _resolve_agent_class, data.get("agent_class", "LlmAgent")
        )
        if mapping.overrides(agent_class, "from_config"):
            # a class that builds itself from its config keeps doing so
            return agent_class.from_config(  # type: ignore[no-any-return]
                mapping.config_as_model(agent_class, data), abs_path
            )
        kwargs = mapping.Mapper(abs_path).map(data, agent_class)
        if mapping.overrides(agent_class, "_parse_config"):
            warnings.warn(
                f"{agent_class.__name__}._parse_config is deprecated and will be removed in"
                " a future version. Declare the fields directly on the class instead; the"
                " loader maps them onto it by reflection.",
                DeprecationWarning,
                stacklevel=2,
            )
            kwargs = agent_class._parse_config(
                mapping.config_as_model(agent_class, data), abs_path, kwargs
            )
        return agent_class(**kwargs)  # type: ignore[no-any-return]


def config_error_location(error: BaseException) -> tuple[str, str | None] | None:
    """(file, key) of the YAML that `error`, raised by `from_config`, came from.

    The key is a path such as `sub_agents[1]` or `tools[0]`; None when the
    error is about the file as a whole (or a pydantic error, which names its
    own fields). None for an error `from_config` did not raise.
    """
    return getattr(error, mapping.LOCATION, None)


def _load_yaml(abs_path: str) -> dict[str, Any]:
    import yaml  # PyYAML: only needed by apps declared in YAML

    with open(abs_path, encoding="utf-8") as file:
        data = yaml.safe_load(file)
    if data is None:
        raise ValueError(f"Invalid agent config in {abs_path!r}. File is empty.")
    if not isinstance(data, dict):
        raise ValueError(f"Invalid agent config in {abs_path!r}. Expected a dictionary.")
    return data


def _resolve_agent_class(agent_class: str) -> type[BaseAgent]:
    name = agent_class or "LlmAgent"
    if "." not in name:
        for package in ("adk.agents", "adk.workflow"):
            try:
                cls = getattr(importlib.import_module(package), name)
            except AttributeError:
                continue
            if inspect.isclass(cls) and issubclass(cls, BaseAgent):
                return cls
    cls = resolve_fully_qualified_name(name)
    if inspect.isclass(cls) and issubclass(cls, BaseAgent):
        return cls
    raise ValueError(f"Invalid class `{name}`. It must be a subclass of BaseNode.")


def ours(name: str) -> str:
    """A reference as durable-adk reads it: `google.adk.x` is `adk.x`."""
    return name.removeprefix("google.") if name.startswith("google.adk.") else name


def _validate_module_reference(fully_qualified_name: str) -> None:
    top_module = fully_qualified_name.split(".")[0]
    if top_module in _BLOCKED_MODULES:
        raise ValueError(
            f"Blocked module reference: {fully_qualified_name!r}. Agent "
            f"configurations cannot import from '{top_module}'. The Python "
            "standard library is blocked in full because too much of it can "
            "execute arbitrary code. Reference your own agent package, "
            "'google.adk', or a third-party package instead."
        )


def resolve_fully_qualified_name(name: str) -> Any:
    """The object `package.module.name` names; ValueError if it does not resolve."""
    try:
        module_path, obj_name = ours(name).rsplit(".", 1)
        _validate_module_reference(name)
        return getattr(importlib.import_module(module_path), obj_name)
    except Exception as error:
        raise ValueError(f"Invalid fully qualified name: {name}") from error


def resolve_agent_reference(
    ref_config: AgentRefConfig, referencing_agent_config_abs_path: str
) -> BaseAgent:
    """The agent a `sub_agents` entry names: a YAML file beside the referring one, or code."""
    if ref_config.config_path:
        if os.path.isabs(ref_config.config_path):
            raise ValueError(
                "Absolute paths are not allowed in AgentRefConfig config_path:"
                f" {ref_config.config_path!r}"
            )
        agent_dir = os.path.dirname(referencing_agent_config_abs_path)
        resolved = os.path.realpath(os.path.join(agent_dir, ref_config.config_path))
        canonical_dir = os.path.realpath(agent_dir)
        if os.path.commonpath([canonical_dir, resolved]) != canonical_dir:
            raise ValueError(
                f"Path traversal detected: config_path {ref_config.config_path!r}"
                " resolves outside the agent directory"
            )
        return from_config(resolved)
    if ref_config.code:
        return _resolve_agent_code_reference(ref_config.code)
    raise ValueError("AgentRefConfig must have either 'code' or 'config_path'")


def _resolve_agent_code_reference(code: str) -> BaseAgent:
    if "." not in code:
        raise ValueError(f"Invalid code reference: {code}")
    _validate_module_reference(code)
    module_path, obj_name = ours(code).rsplit(".", 1)
    obj = getattr(importlib.import_module(module_path), obj_name)
    if inspect.isclass(obj):
        raise ValueError(
            f"Invalid agent reference to a class: {code}. Reference an agent"
            " instance, or name the class in `agent_class` instead."
        )
    if callable(obj):
        raise ValueError(f"Invalid agent reference to a callable: {code}")
    if not isinstance(obj, BaseAgent):
        raise ValueError(f"Invalid agent reference to a non-agent instance: {code}")
    return obj


def resolve_code_reference(code_config: CodeConfig) -> Any:
    """The object a `CodeConfig` names; ValueError if it does not resolve.

    A module that exists but fails to import for another reason (a missing
    dependency of it) raises its own error, which says what is wrong.
    """
    if not code_config or not code_config.name:
        raise ValueError("Invalid CodeConfig.")
    _validate_module_reference(code_config.name)
    if "." not in code_config.name:
        raise ValueError(f"Invalid code reference: {code_config.name}")
    module_path, obj_name = ours(code_config.name).rsplit(".", 1)
    try:
        return getattr(importlib.import_module(module_path), obj_name)
    except ModuleNotFoundError as error:
        missing = error.name
        if missing is None or module_path == missing or module_path.startswith(f"{missing}."):
            raise ValueError(f"Invalid fully qualified name: {code_config.name}") from error
        raise
    except AttributeError as error:
        raise ValueError(f"Invalid fully qualified name: {code_config.name}") from error


def resolve_callbacks(callbacks_config: list[CodeConfig]) -> Any:
    """The callbacks a list of `CodeConfig` names, in order."""
    return [resolve_code_reference(config) for config in callbacks_config]


def _resolve_tools(tool_configs: list[ToolConfig], abs_path: str) -> list[Any]:
    from ..tools.base_tool import BaseTool
    from ..tools.base_toolset import BaseToolset
    from ..tools.tool_configs import ToolArgsConfig

    tools: list[Any] = []
    for index, tool_config in enumerate(tool_configs):
        with mapping.located(abs_path, f"tools[{index}]"):
            if "." not in tool_config.name:  # an ADK built-in tool
                obj = getattr(importlib.import_module("adk.tools"), tool_config.name)
            else:
                _validate_module_reference(tool_config.name)
                module_path, obj_name = ours(tool_config.name).rsplit(".", 1)
                obj = getattr(importlib.import_module(module_path), obj_name)
            if isinstance(obj, (BaseTool, BaseToolset)):
                tools.append(obj)
            elif inspect.isclass(obj) and issubclass(obj, (BaseTool, BaseToolset)):
                tools.append(obj.from_config(tool_config.args or ToolArgsConfig(), abs_path))
            elif callable(obj):
                tools.append(obj(tool_config.args) if tool_config.args else obj)
            else:
                raise ValueError(f"Invalid tool YAML config: {tool_config}.")
    return tools
