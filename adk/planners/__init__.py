"""Planners: mirrors `google.adk.planners` (names only: not implemented yet).

Runs on: process side. `LlmAgent(planner=...)` raises NotImplementedError.
"""

from .base_planner import BasePlanner
from .built_in_planner import BuiltInPlanner
from .plan_re_act_planner import PlanReActPlanner

__all__ = ["BasePlanner", "BuiltInPlanner", "PlanReActPlanner"]
