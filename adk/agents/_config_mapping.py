"""Maps one YAML agent config onto an agent class's fields (for config_agent_utils).

Runs on: process side (when an app's YAML config is loaded).

Mapping is by reflection over the target class, as in google-adk 2.13: the
field's annotation says what a value is (sub-agents, tools, callbacks, a
schema, a model in code); anything else goes to the constructor as written,
where pydantic validates it.
"""

from __future__ import annotations

import collections.abc
import contextlib
import inspect
import logging
import os
import types as pytypes
import typing
from collections.abc import Callable, Iterator
from typing import Any

from google.genai import types
from pydantic import BaseModel

from .common_configs import AgentRefConfig, CodeConfig

logger = logging.getLogger("adk.agents.config_agent_utils")

LOCATION = "_adk_config_location"
"""The attribute an error raised while loading a config carries: (file, key)."""


@contextlib.contextmanager
def located(path: str, key: str | None) -> Iterator[None]:
    """Errors raised inside record (path, key), unless a nearer place already did."""
    try:
        yield
    except Exception as error:
        if getattr(error, LOCATION, None) is None:
            with contextlib.suppress(AttributeError, TypeError):  # a class refusing attributes
                setattr(error, LOCATION, (path, key))
        raise


def located_call(path: str, key: str, func: Callable[..., Any], *args: Any) -> Any:
    with located(path, key):
        return func(*args)


def overrides(cls: type[Any], method: str) -> bool:
    """Whether a BaseAgent subclass defines its own `method` (a classmethod)."""
    from .base_agent import BaseAgent

    own = getattr(getattr(cls, method, None), "__func__", None)
    return own is not None and own is not getattr(BaseAgent, method).__func__


def config_schema(cls: type[Any]) -> type[BaseModel] | None:
    schema = getattr(cls, "config_type", None)
    return schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None


def config_as_model(cls: type[Any], data: dict[str, Any]) -> Any:
    """The data validated into the class's config type (what `from_config` hooks get)."""
    schema = config_schema(cls)
    if schema is None:
        return data
    # (the config classes are deprecated: validating into one warns, as in 2.13)
    return schema.model_validate(data)


class Mapper:
    """Maps the keys of one config file onto constructor arguments of a class."""

    def __init__(self, abs_path: str) -> None:
        self.abs_path = abs_path

    def map(self, data: dict[str, Any], cls: type[Any]) -> dict[str, Any]:
        config_as_model(cls, data)  # an unknown key or a wrong type fails here, named
        fields = dict(cls.model_fields) if issubclass(cls, BaseModel) else {}
        valid = set(fields) | _named_parameters(cls)
        kwargs: dict[str, Any] = {}
        unknown: list[str] = []
        for key, value in data.items():
            if key == "agent_class":
                continue
            target, is_code = key, False
            if key.endswith("_code") and key.removesuffix("_code") in valid:
                target, is_code = key.removesuffix("_code"), True
            elif key.endswith("_callbacks") and key.removesuffix("s") in valid:
                target = key.removesuffix("s")
            if target not in valid:
                unknown.append(key)
                continue
            with located(self.abs_path, key):
                if is_code:
                    kwargs[target] = self._code(value)
                else:
                    kwargs[target] = self._field(key, value, fields.get(target))
        if unknown:  # only a custom class's config (extra keys allowed) gets here
            logger.warning("%s does not accept %s; ignoring.", cls.__name__, sorted(unknown))
        return kwargs

    def _code(self, value: Any) -> Any:
        """A `<field>_code` value: a dotted name, `.name` being in this config's folder."""
        from .config_agent_utils import resolve_code_reference

        package = os.path.basename(os.path.dirname(self.abs_path))
        if isinstance(value, str):
            return resolve_code_reference(
                CodeConfig(name=package + value if value.startswith(".") else value)
            )
        if isinstance(value, dict) and str(value.get("name", "")).startswith("."):
            value = {**value, "name": package + value["name"]}
        return resolve_code_reference(CodeConfig(**value))

    def _field(self, key: str, value: Any, field: Any) -> Any:
        from ..tools.tool_configs import ToolConfig
        from .config_agent_utils import (
            _resolve_tools,
            resolve_agent_reference,
            resolve_code_reference,
        )

        if field is None:
            return value
        annotation = field.annotation
        if _is_sub_agents(annotation) and isinstance(value, list):
            agents = []
            for index, item in enumerate(value):
                with located(self.abs_path, f"{key}[{index}]"):
                    ref = (
                        AgentRefConfig(**item)
                        if isinstance(item, dict)
                        else AgentRefConfig(config_path=item)
                    )
                    agents.append(resolve_agent_reference(ref, self.abs_path))
            return agents
        if _is_tools(annotation) and isinstance(value, list):
            configs = [
                ToolConfig(**v) if isinstance(v, dict) else ToolConfig(name=v) for v in value
            ]
            return _resolve_tools(configs, self.abs_path)
        if _is_callback(annotation):
            if isinstance(value, list):
                callbacks = []
                for index, item in enumerate(value):
                    with located(self.abs_path, f"{key}[{index}]"):
                        config = (
                            CodeConfig(**item) if isinstance(item, dict) else CodeConfig(name=item)
                        )
                        callbacks.append(resolve_code_reference(config))
                return callbacks
            if isinstance(value, dict):
                return resolve_code_reference(CodeConfig(**value))
            if isinstance(value, str):
                return resolve_code_reference(CodeConfig(name=value))
        if _is_schema(annotation):
            if isinstance(value, dict) and "name" in value:
                return resolve_code_reference(CodeConfig(**value))
            if isinstance(value, str):
                return resolve_code_reference(CodeConfig(name=value))
        if _is_llm(annotation) and isinstance(value, dict) and "name" in value:
            return resolve_code_reference(CodeConfig(**value))
        return value


def _named_parameters(cls: type[Any]) -> set[str]:
    """A constructor's named parameters (none for a pydantic model's `**data`)."""
    if not inspect.isclass(cls):
        return set()
    return {
        name
        for name, parameter in inspect.signature(cls.__init__).parameters.items()
        if name != "self" and parameter.kind is not inspect.Parameter.VAR_KEYWORD
    }


_UNIONS = (typing.Union, pytypes.UnionType)


def _union_members(annotation: Any) -> tuple[Any, ...] | None:
    return typing.get_args(annotation) if typing.get_origin(annotation) in _UNIONS else None


def _is_callback(annotation: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin in (typing.Callable, collections.abc.Callable):
        return True
    members = _union_members(annotation)
    if members is not None:
        return str not in members and any(_is_callback(member) for member in members)
    return origin is list and any(_is_callback(arg) for arg in typing.get_args(annotation))


def _is_subclass_of(value: Any, classes: tuple[type, ...]) -> bool:
    return isinstance(value, type) and issubclass(value, classes)


def _is_tools(annotation: Any) -> bool:
    from ..tools.base_tool import BaseTool
    from ..tools.base_toolset import BaseToolset

    members = _union_members(annotation)
    if members is not None:
        return any(_is_tools(member) for member in members)
    if typing.get_origin(annotation) is not list:
        return False
    for arg in typing.get_args(annotation):
        candidates = _union_members(arg) or (arg,)
        if any(_is_subclass_of(c, (BaseTool, BaseToolset)) for c in candidates):
            return True
    return False


def _is_sub_agents(annotation: Any) -> bool:
    from .base_agent import BaseAgent

    members = _union_members(annotation)
    if members is not None:
        return any(_is_sub_agents(member) for member in members)
    return typing.get_origin(annotation) is list and any(
        _is_subclass_of(arg, (BaseAgent,)) for arg in typing.get_args(annotation)
    )


def _is_schema(annotation: Any) -> bool:
    from ..models.base_llm import BaseLlm
    from .base_agent import BaseAgent

    own = (BaseAgent, BaseLlm)
    if _is_subclass_of(annotation, own):
        return False
    members = _union_members(annotation)
    if members is not None:
        return any(_is_schema(member) for member in members)
    if typing.get_origin(annotation) is type:
        return any(
            _is_subclass_of(arg, (BaseModel,)) and not _is_subclass_of(arg, own)
            for arg in typing.get_args(annotation)
        )
    return annotation is types.SchemaUnion or annotation is types.Schema


def _is_llm(annotation: Any) -> bool:
    from ..models.base_llm import BaseLlm

    if _is_subclass_of(annotation, (BaseLlm,)):
        return True
    members = _union_members(annotation)
    return members is not None and any(_is_llm(member) for member in members)
