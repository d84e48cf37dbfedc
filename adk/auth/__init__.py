"""Auth: mirrors `google.adk.auth` (the credential and scheme models).

Runs on: activity side (worker process). The models need FastAPI's OpenAPI models
(`pip install 'durable-adk[openapi]'`). The credential-request flow (AuthConfig,
AuthHandler, auth providers) is not ported: those names raise NotImplementedError.
"""

from __future__ import annotations

from typing import Any

from .._unported import unported_attribute
from .auth_credential import AuthCredential, AuthCredentialTypes, OAuth2Auth
from .auth_schemes import AuthScheme, AuthSchemeType, OpenIdConnectWithConfig

__all__ = [
    "AuthCredential",
    "AuthCredentialTypes",
    "AuthScheme",
    "AuthSchemeType",
    "OAuth2Auth",
    "OpenIdConnectWithConfig",
]


def __getattr__(name: str) -> Any:
    raise unported_attribute(__name__, name)
