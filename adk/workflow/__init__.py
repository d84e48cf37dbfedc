"""Workflows (graphs of nodes): mirrors `google.adk.workflow` (names only: not implemented yet).

Runs on: process side. The package exists for the exception the runtime raises
as google-adk does (`_errors`); every name google.adk.workflow
exports raises NotImplementedError naming it.
"""

from typing import Any

from .._unported import unported_attribute


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
