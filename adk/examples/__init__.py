"""Few-shot examples: mirrors `google.adk.examples` (the data types; ExampleTool does not run yet).

Runs on: process side.
"""

from typing import Any

from .._unported import unported_attribute
from .base_example_provider import BaseExampleProvider
from .example import Example

__all__ = ["BaseExampleProvider", "Example"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
