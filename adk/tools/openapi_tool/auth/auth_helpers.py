"""Auth schemes and credentials for OpenAPI tools (google-adk 2.13's helpers).

Runs on: activity side (worker process; pure). An API key (header, query or
cookie) and HTTP credentials (bearer token, basic) are attached to each request as
given. Service accounts and OpenID Connect need 2.13's token exchange or
credential-request flow, which durable-adk does not implement yet: their helpers
raise NotImplementedError naming them.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ...._openapi_models import models
from ...._unimplemented import not_implemented
from ....auth.auth_credential import (
    AuthCredential,
    AuthCredentialTypes,
    HttpAuth,
    HttpCredentials,
)
from ....auth.auth_schemes import AuthScheme, AuthSchemeType
from ..common.common import ApiParameter

INTERNAL_AUTH_PREFIX = "_auth_prefix_vaf_"
"""The Python-name prefix of the parameters auth adds (never declared to the model)."""


class OpenIdConfig(BaseModel):
    """An OpenID Connect client's configuration."""

    client_id: str
    auth_uri: str
    token_uri: str
    client_secret: str
    redirect_uri: str | None


def token_to_scheme_credential(
    token_type: Literal["apikey", "oauth2Token"],
    location: Literal["header", "query", "cookie"] | None = None,
    name: str | None = None,
    credential_value: str | None = None,
) -> tuple[AuthScheme, AuthCredential | None]:
    """An API key's scheme (`"apikey"`, in a header, query parameter or cookie named
    `name`) or a bearer token's (`"oauth2Token"`, always the Authorization header),
    and the credential holding `credential_value` (None without one)."""
    if token_type == "apikey":
        places = {"header": models.APIKeyIn.header, "query": models.APIKeyIn.query}
        places["cookie"] = models.APIKeyIn.cookie
        if location not in places:
            raise ValueError(f"Invalid location for apiKey: {location}")
        scheme: AuthScheme = models.APIKey(
            **{"type": AuthSchemeType.apiKey, "in": places[location], "name": name}
        )
        credential = (
            AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key=credential_value)
            if credential_value
            else None
        )
        return scheme, credential
    if token_type == "oauth2Token":
        scheme = models.HTTPBearer(bearerFormat="JWT")
        credential = (
            AuthCredential(
                auth_type=AuthCredentialTypes.HTTP,
                http=HttpAuth(scheme="bearer", credentials=HttpCredentials(token=credential_value)),
            )
            if credential_value
            else None
        )
        return scheme, credential
    raise ValueError(f"Invalid security scheme type: {type}")  # (2.13's message, verbatim)


def service_account_dict_to_scheme_credential(config: dict[str, Any], scopes: Any) -> Any:
    raise not_implemented(
        "service_account_dict_to_scheme_credential", "service-account token exchange"
    )


def service_account_scheme_credential(config: Any) -> Any:
    raise not_implemented("service_account_scheme_credential", "service-account token exchange")


def openid_dict_to_scheme_credential(
    config_dict: dict[str, Any], scopes: Any, credential_dict: dict[str, Any]
) -> Any:
    raise not_implemented(
        "openid_dict_to_scheme_credential", "OpenID Connect (the credential-request flow)"
    )


def openid_url_to_scheme_credential(
    openid_url: str, scopes: Any, credential_dict: dict[str, Any]
) -> Any:
    raise not_implemented(
        "openid_url_to_scheme_credential", "OpenID Connect (the credential-request flow)"
    )


def _auth_parameter(name: str, location: str, description: str) -> ApiParameter:
    return ApiParameter(
        original_name=name,
        param_location=location,
        param_schema=models.Schema(type="string"),
        description=description,
        py_name=INTERNAL_AUTH_PREFIX + name,
    )


def _bearer(scheme: AuthScheme, token: str) -> tuple[ApiParameter, dict[str, Any]]:
    description = getattr(scheme, "description", None)  # (a CustomAuthScheme has none)
    param = _auth_parameter("Authorization", "header", description or "Bearer token")
    return param, {param.py_name: f"Bearer {token}"}  # type: ignore[dict-item]


def credential_to_param(
    auth_scheme: AuthScheme, auth_credential: AuthCredential
) -> tuple[ApiParameter | None, dict[str, Any] | None]:
    """The request parameter a credential adds (an API key where its scheme puts it;
    an Authorization header for a bearer token or basic credentials) and its value."""
    if not auth_credential:
        return None, None
    if auth_scheme.type_ == AuthSchemeType.apiKey and auth_credential.api_key:
        locations = {
            models.APIKeyIn.header: "header",
            models.APIKeyIn.query: "query",
            models.APIKeyIn.cookie: "cookie",
        }
        if auth_scheme.in_ not in locations:  # type: ignore[union-attr]
            raise ValueError(f"Invalid API Key location: {auth_scheme.in_}")  # type: ignore[union-attr]
        param = _auth_parameter(
            auth_scheme.name or "",  # type: ignore[union-attr]
            locations[auth_scheme.in_],  # type: ignore[union-attr]
            auth_scheme.description or "",
        )
        return param, {param.py_name: auth_credential.api_key}  # type: ignore[dict-item]
    http = auth_credential.http
    if auth_credential.auth_type == AuthCredentialTypes.HTTP:
        if http and http.credentials and http.credentials.token:
            return _bearer(auth_scheme, http.credentials.token)
        secret = http.credentials if http else None
        if (
            http
            and http.scheme
            and http.scheme.lower() == "basic"
            and secret
            and (secret.username is not None or secret.password is not None)
        ):
            username = secret.username or ""
            if ":" in username:
                raise ValueError("Invalid HTTP auth credentials: username cannot contain colons")
            encoded = base64.b64encode(f"{username}:{secret.password or ''}".encode()).decode(
                "ascii"
            )
            param = _auth_parameter(
                "Authorization",
                "header",
                getattr(auth_scheme, "description", None) or "Basic authentication",
            )
            return param, {param.py_name: f"Basic {encoded}"}  # type: ignore[dict-item]
        raise ValueError("Invalid HTTP auth credentials")
    if auth_scheme.type_ in (AuthSchemeType.oauth2, AuthSchemeType.openIdConnect):
        if http and http.credentials and http.credentials.token:
            return _bearer(auth_scheme, http.credentials.token)
        return None, None
    raise ValueError("Invalid security scheme and credential combination")


def dict_to_auth_scheme(data: dict[str, Any]) -> AuthScheme:
    """A security scheme object (`APIKey`, `HTTPBearer`, `HTTPBase`, `OAuth2`,
    `OpenIdConnect`) from its OpenAPI dict."""
    if "type" not in data:
        raise ValueError("Missing 'type' field in security scheme dictionary.")
    kind = data["type"]
    try:
        if kind == "apiKey":
            return models.APIKey.model_validate(data)
        if kind == "http":
            if data.get("scheme") == "bearer":
                return models.HTTPBearer.model_validate(data)
            return models.HTTPBase.model_validate(data)
        if kind == "oauth2":
            return models.OAuth2.model_validate(data)
        if kind == "openIdConnect":
            return models.OpenIdConnect.model_validate(data)
        raise ValueError(f"Invalid security scheme type: {kind}")
    except ValidationError as error:
        raise ValueError(f"Invalid security scheme data: {error}") from error
