"""ExampleTool: adds few-shot examples to the request (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from typing import Union

from ..examples.base_example_provider import BaseExampleProvider
from ..examples.example import Example
from ._unimplemented_tool import UnimplementedTool


class ExampleTool(UnimplementedTool):
    """Puts examples of the expected behaviour in the system instruction."""

    feature = "few-shot examples (ExampleTool)"

    def __init__(self, examples: Union[list[Example], BaseExampleProvider]) -> None:
        super().__init__(name="example_tool", description="example tool")
        self.examples = examples
