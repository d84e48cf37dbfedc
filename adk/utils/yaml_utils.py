"""YAML helpers: mirrors `google.adk.utils.yaml_utils`.

Runs on: process side (tools that read or write agent configs).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from pydantic.main import IncEx


def load_yaml_file(file_path: str | Path) -> Any:
    """The content of a YAML file (safe loading: plain data only).

    Raises:
      FileNotFoundError: the file does not exist.
    """
    import yaml

    file_path = Path(file_path)
    if not file_path.is_file():
        raise FileNotFoundError(f"YAML file not found: {file_path}")
    with file_path.open("r", encoding="utf-8") as f:
        return yaml.safe_load(f)


def dump_pydantic_to_yaml(
    model: BaseModel,
    file_path: str | Path,
    *,
    indent: int = 2,
    sort_keys: bool = True,
    exclude_none: bool = True,
    exclude_defaults: bool = True,
    exclude: IncEx | None = None,
) -> None:
    """Writes a pydantic model as YAML, strings with a newline or a quote in `|` style,
    every sequence indented under its key."""
    import yaml

    data = model.model_dump(
        exclude_none=exclude_none, exclude_defaults=exclude_defaults, exclude=exclude, mode="json"
    )

    class _Dumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            return super().increase_indent(flow, False)

    def represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
        style = "|" if any(c in text for c in "\n\"'") else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    _Dumper.add_representer(str, represent_str)
    file_path = Path(file_path)
    file_path.parent.mkdir(parents=True, exist_ok=True)
    with file_path.open("w", encoding="utf-8") as f:
        yaml.dump(
            data,
            f,
            Dumper=_Dumper,
            indent=indent,
            sort_keys=sort_keys,
            width=1000000,  # no wrapping
            allow_unicode=True,
        )
