"""Few-shot examples: mirrors `google.adk.examples` (the data types; ExampleTool uses them).

Runs on: process side.
"""

from .base_example_provider import BaseExampleProvider
from .example import Example

__all__ = ["BaseExampleProvider", "Example"]
