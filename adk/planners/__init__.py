"""Planners: mirrors `google.adk.planners` (names only: not implemented yet).

Runs on: process side. `LlmAgent(planner=...)` raises NotImplementedError.
"""

from typing import Any

from .._unported import unported_attribute
from .base_planner import BasePlanner
from .built_in_planner import BuiltInPlanner
from .plan_re_act_planner import PlanReActPlanner

__all__ = ["BasePlanner", "BuiltInPlanner", "PlanReActPlanner"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
