"""Names of generated tools and parameters, as google-adk 2.13 spells them.

Runs on: activity side (pure).
"""

from __future__ import annotations

import keyword
import re

MAX_TOOL_NAME_LENGTH = 60
"""Gemini takes function names under 64 characters; 2.13 cuts them at 60."""


def to_snake_case(text: str) -> str:
    """`camelCase`, `UpperCamel`, `REST API`, `/pets/{id}_get` -> snake_case."""
    text = re.sub(r"[^a-zA-Z0-9]+", "_", text)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", text)
    return re.sub(r"_+", "_", text.lower()).strip("_")


def rename_python_keywords(s: str, prefix: str = "param_") -> str:
    """`if` -> `param_if`; any other name as it is."""
    return prefix + s if keyword.iskeyword(s) else s
