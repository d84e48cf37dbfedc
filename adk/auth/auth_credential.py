"""Credentials for tools that call authenticated APIs (google.adk.auth.auth_credential).

Runs on: activity side (worker process). Data only: the models google-adk 2.13
users build credentials with (camelCase aliases, extra keys allowed, secrets kept
out of reprs). durable-adk uses API keys and HTTP credentials (basic, bearer) as
given; OAuth2, OpenID Connect and service accounts need 2.13's credential-request
or token-exchange flows, which durable-adk does not implement yet: the tools that
would start them raise NotImplementedError naming them.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, alias_generators, model_validator

_REDACTED = "<redacted>"


class BaseModelWithConfig(BaseModel, hide_input_in_errors=True):
    """Base of the credential models: camelCase aliases, extra keys kept, secrets
    never shown (declared secret fields have repr=False; extra keys' values are
    redacted, since any of them may be a secret)."""

    model_config = ConfigDict(
        extra="allow",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        extra = self.__pydantic_extra__ or {}
        for key, value in super().__repr_args__():
            yield key, _REDACTED if key in extra else value


class HttpCredentials(BaseModelWithConfig):
    """The secret of an HTTP authentication: user name and password, or a token."""

    username: str | None = None
    password: Annotated[str | None, Field(repr=False)] = None
    token: Annotated[str | None, Field(repr=False)] = None

    @classmethod
    def model_validate(cls, data: dict[str, Any]) -> HttpCredentials:  # type: ignore[override]
        return cls(
            username=data.get("username"),
            password=data.get("password"),
            token=data.get("token"),
        )


class HttpAuth(BaseModelWithConfig):
    """An HTTP authentication: its scheme (`basic`, `bearer`), secret and extra headers."""

    scheme: str
    credentials: HttpCredentials
    additional_headers: Annotated[dict[str, str] | None, Field(repr=False)] = None


class OAuth2Auth(BaseModelWithConfig):
    """An OAuth2 client and the tokens it obtained."""

    client_id: str | None = None
    client_secret: Annotated[str | None, Field(repr=False)] = None
    auth_uri: str | None = None
    nonce: str | None = None
    state: str | None = None
    redirect_uri: str | None = None
    auth_response_uri: Annotated[str | None, Field(repr=False)] = None
    auth_code: Annotated[str | None, Field(repr=False)] = None
    access_token: Annotated[str | None, Field(repr=False)] = None
    refresh_token: Annotated[str | None, Field(repr=False)] = None
    id_token: Annotated[str | None, Field(repr=False)] = None
    expires_at: int | None = None
    expires_in: int | None = None
    audience: str | None = None
    prompt: str | None = None
    code_verifier: Annotated[str | None, Field(repr=False)] = None
    code_challenge_method: str | None = None
    token_endpoint_auth_method: (
        Literal["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt"]
        | None
    ) = "client_secret_basic"


class ServiceAccountCredential(BaseModelWithConfig):
    """A Google service account's JSON key."""

    type_: str = Field("", alias="type")
    project_id: str
    private_key_id: Annotated[str, Field(repr=False)]
    private_key: Annotated[str, Field(repr=False)]
    client_email: str
    client_id: str
    auth_uri: str
    token_uri: str
    auth_provider_x509_cert_url: str
    client_x509_cert_url: str
    universe_domain: str


class ServiceAccount(BaseModelWithConfig):
    """A Google service account (a key, or Application Default Credentials) and scopes."""

    service_account_credential: ServiceAccountCredential | None = None
    scopes: list[str] | None = None
    use_default_credential: bool | None = False
    use_id_token: bool | None = False
    audience: str | None = None

    @model_validator(mode="after")
    def _validate_config(self) -> ServiceAccount:
        if not self.use_default_credential and self.service_account_credential is None:
            raise ValueError(
                "service_account_credential is required when use_default_credential is False."
            )
        if self.use_id_token and not self.audience:
            raise ValueError(
                "audience is required when use_id_token is True. Set it to the"
                " URL of the target service"
                " (e.g. 'https://my-service.run.app')."
            )
        return self


class AuthCredentialTypes(str, Enum):  # noqa: UP042 (str() as google.adk's: the member name)
    """The kind of a credential."""

    API_KEY = "apiKey"
    HTTP = "http"
    OAUTH2 = "oauth2"
    OPEN_ID_CONNECT = "openIdConnect"
    SERVICE_ACCOUNT = "serviceAccount"


class AuthCredential(BaseModelWithConfig):
    """A credential: `AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key="...")`,
    or `auth_type=AuthCredentialTypes.HTTP` with `http=HttpAuth(scheme="bearer",
    credentials=HttpCredentials(token="..."))`, ..."""

    auth_type: AuthCredentialTypes
    resource_ref: str | None = None
    api_key: Annotated[str | None, Field(repr=False)] = None
    http: HttpAuth | None = None
    service_account: ServiceAccount | None = None
    oauth2: OAuth2Auth | None = None
