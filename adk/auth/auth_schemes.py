"""Auth schemes (google.adk.auth.auth_schemes): OpenAPI security schemes and two more.

Runs on: activity side (worker process). Data only. An `AuthScheme` is one of
FastAPI's OpenAPI security scheme models (`APIKey`, `HTTPBase`, `HTTPBearer`,
`OAuth2`, `OpenIdConnect`), an `OpenIdConnectWithConfig` or a `CustomAuthScheme`,
as in google-adk 2.13.
"""

from __future__ import annotations

from enum import Enum
from typing import Union

from pydantic import Field

from .._openapi_models import models
from .auth_credential import BaseModelWithConfig


class OpenIdConnectWithConfig(models.SecurityBase):
    """OpenID Connect with its endpoints given, not discovered."""

    type_: models.SecuritySchemeType = Field(
        default=models.SecuritySchemeType.openIdConnect, alias="type"
    )
    authorization_endpoint: str
    token_endpoint: str
    userinfo_endpoint: str | None = None
    revocation_endpoint: str | None = None
    token_endpoint_auth_methods_supported: list[str] | None = None
    grant_types_supported: list[str] | None = None
    scopes: list[str] | None = None


class CustomAuthScheme(BaseModelWithConfig):
    """A scheme of one's own (a subclass gives `type_` a default)."""

    type_: str = Field(alias="type")


AuthScheme = Union[models.SecurityScheme, OpenIdConnectWithConfig, CustomAuthScheme]


class OAuthGrantType(str, Enum):  # noqa: UP042 (str() as google.adk's: the member name)
    """An OAuth2 flow (grant type)."""

    CLIENT_CREDENTIALS = "client_credentials"
    AUTHORIZATION_CODE = "authorization_code"
    IMPLICIT = "implicit"
    PASSWORD = "password"

    @staticmethod
    def from_flow(flow: models.OAuthFlows) -> OAuthGrantType | None:
        """The grant type of the first flow `flow` sets."""
        for attribute, grant in (
            ("clientCredentials", OAuthGrantType.CLIENT_CREDENTIALS),
            ("authorizationCode", OAuthGrantType.AUTHORIZATION_CODE),
            ("implicit", OAuthGrantType.IMPLICIT),
            ("password", OAuthGrantType.PASSWORD),
        ):
            if getattr(flow, attribute):
                return grant
        return None


AuthSchemeType = models.SecuritySchemeType


class ExtendedOAuth2(models.OAuth2):
    """OAuth2 with an issuer URL for endpoint discovery."""

    issuer_url: str | None = None
