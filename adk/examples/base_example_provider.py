"""BaseExampleProvider: where ExampleTool gets its examples (google.adk's interface).

Runs on: process side.
"""

from __future__ import annotations

import abc

from .example import Example


class BaseExampleProvider(abc.ABC):
    """Provides the few-shot examples for a query."""

    @abc.abstractmethod
    def get_examples(self, query: str) -> list[Example]:
        """The examples for this query."""
