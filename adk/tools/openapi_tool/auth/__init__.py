"""Mirrors `google.adk.tools.openapi_tool.auth`.

Runs on: activity side (worker process). The credential exchangers
(`auth.credential_exchangers`: OAuth2, service accounts) are not ported.
"""

from __future__ import annotations

from . import auth_helpers

__all__ = ["auth_helpers"]
