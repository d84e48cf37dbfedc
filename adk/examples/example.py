"""Example: one few-shot example (an input and the expected output).

Runs on: process side (pure data).
"""

from __future__ import annotations

from google.genai import types
from pydantic import BaseModel


class Example(BaseModel):
    """A few-shot example."""

    input: types.Content
    output: list[types.Content]
