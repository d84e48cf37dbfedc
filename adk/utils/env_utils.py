"""Environment switches, read as google-adk 2.13 reads them.

Runs on: activity and process side (never the workflow: it reads the environment).
"""

from __future__ import annotations

import os

_TRUTHY = frozenset({"1", "true", "yes", "on"})


def is_env_enabled(env_var_name: str, default: str = "0") -> bool:
    """Whether the variable is set to 1, true, yes or on (any case, spaces ignored)."""
    return os.environ.get(env_var_name, default).strip().lower() in _TRUTHY


_EXPERIMENTAL_WARNING_SUPPRESSION_ENV_VAR = "ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS"


def _is_experimental_warning_suppressed() -> bool:
    """Whether ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS silences experimental warnings."""
    return is_env_enabled(_EXPERIMENTAL_WARNING_SUPPRESSION_ENV_VAR)
