"""RestApiTool: one OpenAPI operation as a tool; a call is one HTTP request.

Runs on: activity side. The declaration is built in the model step; the request
is sent in the tool-call activity, whose recorded input and result are the model's
arguments and the function response (never the credentials, which the worker's
agent definition holds and the activity attaches). Requests, results and errors
are google-adk 2.13's: the JSON response (or `{"text": ...}`), and for an HTTP
error, a refused URL or a timeout 2.13's `{"error": "Tool ... execution failed.
..."}`. A request that could not connect (so was never sent) fails the
activity's attempt while Temporal has attempts left (the call is made again); on
the last one, and for any other transport error (the request may have reached the
server), the error is raised, as in 2.13.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Callable
from typing import Any, Union

import httpx
from google.genai.types import FunctionDeclaration

from ...._openapi_models import models
from ...._unimplemented import not_implemented
from ....agents.readonly_context import ReadonlyContext
from ....auth.auth_credential import AuthCredential, AuthCredentialTypes
from ....auth.auth_schemes import AuthScheme
from ....errors.input_validation_error import InputValidationError
from ..._transient import TransientToolError, retry_available
from ...base_tool import BaseTool
from ...tool_context import ToolContext
from .._naming import MAX_TOOL_NAME_LENGTH, to_snake_case
from ..auth.auth_helpers import credential_to_param, dict_to_auth_scheme
from ..common.common import ApiParameter
from . import _http
from ._http import HttpxClientFactory as HttpxClientFactory
from ._request import body_for, encode_path_param, to_param_string, url_for, user_agent_version
from ._request import encode_path_param as _encode_path_param  # noqa: F401 (2.13's names)
from ._request import to_param_string as _to_param_string  # noqa: F401
from .openapi_spec_parser import OperationEndpoint, ParsedOperation
from .operation_parser import OperationParser

logger = logging.getLogger(__name__)

_EXCHANGED_CREDENTIALS = {
    AuthCredentialTypes.OAUTH2: "OAuth2 (token exchange and the credential-request flow)",
    AuthCredentialTypes.OPEN_ID_CONNECT: "OpenID Connect (the credential-request flow)",
    AuthCredentialTypes.SERVICE_ACCOUNT: "service-account token exchange",
}


def snake_to_lower_camel(snake_case_string: str) -> str:
    """`get_pet_by_id` -> `getPetById` (a name without `_` as it is)."""
    if "_" not in snake_case_string:
        return snake_case_string
    first, *rest = snake_case_string.split("_")
    return first.lower() + "".join(part.capitalize() for part in rest)


class RestApiTool(BaseTool):
    """A tool that calls one operation of a REST API; build them with
    `OpenAPIToolset`, or `RestApiTool.from_parsed_operation(...)` for each of
    `OpenApiSpecParser().parse(spec)`."""

    def __init__(
        self,
        name: str,
        description: str,
        endpoint: Union[OperationEndpoint, str],
        operation: Union[models.Operation, str],
        auth_scheme: Union[AuthScheme, str] | None = None,
        auth_credential: Union[AuthCredential, str] | None = None,
        should_parse_operation: bool = True,
        ssl_verify: Union[bool, str, ssl.SSLContext] | None = None,
        header_provider: Callable[[ReadonlyContext], dict[str, str]] | None = None,
        httpx_client_factory: HttpxClientFactory | None = None,
        *,
        credential_key: str | None = None,
        allow_private_network_access: bool = False,
    ):
        """`allow_private_network_access`: by default a request to a loopback, private,
        link-local (cloud metadata) or `*.internal`/`*.local` target is refused with
        an error result; True allows them (and custom transports)."""
        super().__init__(name=name[:MAX_TOOL_NAME_LENGTH], description=description)
        self.endpoint = (
            OperationEndpoint.model_validate_json(endpoint)
            if isinstance(endpoint, str)
            else endpoint
        )
        self.operation = (
            models.Operation.model_validate_json(operation)
            if isinstance(operation, str)
            else operation
        )
        self.auth_credential: AuthCredential | None = None
        self.auth_scheme: AuthScheme | None = None
        self.credential_key = credential_key
        self.configure_auth_credential(auth_credential)
        self.configure_auth_scheme(auth_scheme)
        self._default_headers: dict[str, str] = {}
        self._ssl_verify = ssl_verify
        self._header_provider = header_provider
        self._httpx_client_factory = httpx_client_factory
        self._logger = logger
        self._allow_private_network_access = allow_private_network_access
        if should_parse_operation:
            self._operation_parser = OperationParser(self.operation)

    @property
    def _reads_context(self) -> bool:
        """durable-adk: only a header provider reads the context of a call."""
        return self._header_provider is not None

    @classmethod
    def from_parsed_operation(
        cls,
        parsed: ParsedOperation,
        ssl_verify: Union[bool, str, ssl.SSLContext] | None = None,
        header_provider: Callable[[ReadonlyContext], dict[str, str]] | None = None,
        httpx_client_factory: HttpxClientFactory | None = None,
        *,
        allow_private_network_access: bool = False,
    ) -> RestApiTool:
        parser = OperationParser.load(parsed.operation, parsed.parameters, parsed.return_value)
        tool = cls(
            name=to_snake_case(parser.get_function_name()),
            description=parsed.operation.description or parsed.operation.summary or "",
            endpoint=parsed.endpoint,
            operation=parsed.operation,
            auth_scheme=parsed.auth_scheme,
            auth_credential=parsed.auth_credential,
            ssl_verify=ssl_verify,
            header_provider=header_provider,
            httpx_client_factory=httpx_client_factory,
            allow_private_network_access=allow_private_network_access,
            should_parse_operation=False,
        )
        tool._operation_parser = parser
        return tool

    @classmethod
    def from_parsed_operation_str(cls, parsed_operation_str: str) -> RestApiTool:
        return RestApiTool.from_parsed_operation(
            ParsedOperation.model_validate_json(parsed_operation_str)
        )

    def _get_declaration(self) -> FunctionDeclaration:
        """The operation's parameters as JSON schema (2.13's default declaration)."""
        return FunctionDeclaration(
            name=self.name,
            description=self.description,
            parameters_json_schema=self._operation_parser.get_json_schema(),
        )

    def configure_auth_scheme(
        self, auth_scheme: Union[AuthScheme, dict[str, Any], str, None]
    ) -> None:
        if isinstance(auth_scheme, dict):
            auth_scheme = dict_to_auth_scheme(auth_scheme)
        self.auth_scheme = auth_scheme  # type: ignore[assignment]

    def configure_auth_credential(
        self, auth_credential: Union[AuthCredential, str] | None = None
    ) -> None:
        """Refuses a credential that needs exchanging (OAuth2, OpenID Connect, service
        account): durable-adk does not implement those flows yet."""
        if isinstance(auth_credential, str):
            auth_credential = AuthCredential.model_validate_json(auth_credential)
        if auth_credential is not None and auth_credential.auth_type in _EXCHANGED_CREDENTIALS:
            raise not_implemented(
                f"RestApiTool(auth_credential=<{auth_credential.auth_type.value} credential>)",
                _EXCHANGED_CREDENTIALS[auth_credential.auth_type],
            )
        self.auth_credential = auth_credential

    def configure_credential_key(self, credential_key: str | None = None) -> None:
        self.credential_key = credential_key

    def configure_ssl_verify(
        self, ssl_verify: Union[bool, str, ssl.SSLContext] | None = None
    ) -> None:
        self._ssl_verify = ssl_verify

    def set_default_headers(self, headers: dict[str, str]) -> None:
        """Headers added to every request (a parameter's header of the same name wins)."""
        self._default_headers = headers

    def _prepare_auth_request_params(
        self, auth_scheme: AuthScheme, auth_credential: AuthCredential
    ) -> tuple[ApiParameter | None, dict[str, Any] | None]:
        if not auth_scheme or not auth_credential:
            return None, None
        return credential_to_param(auth_scheme, auth_credential)

    def _auth_parameter(self) -> tuple[ApiParameter | None, dict[str, Any] | None]:
        """The credential as a request parameter; none when no scheme asks for one."""
        if not self.auth_scheme:
            return None, None
        if self.auth_credential is None:
            raise not_implemented(
                f"RestApiTool {self.name!r} with an auth scheme and no auth_credential",
                "asking the user for a credential (adk_request_credential); give the"
                " toolset an auth_credential",
            )
        return self._prepare_auth_request_params(self.auth_scheme, self.auth_credential)

    def _prepare_request_params(
        self, parameters: list[ApiParameter], kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        """The `httpx.AsyncClient.request` keyword arguments for these arguments."""
        method = self.endpoint.method.lower()
        if not method:
            raise ValueError("Operation method not found.")
        path_params: dict[str, Any] = {}
        query_params: dict[str, Any] = {}
        header_params: dict[str, str] = {
            "User-Agent": f"durable-adk/{user_agent_version()} (tool: {self.name})"
        }
        cookie_params: dict[str, str] = {}
        credential = self.auth_credential
        if credential and credential.http and credential.http.additional_headers:
            header_params.update(credential.http.additional_headers)
        by_name = {p.py_name: p for p in parameters}
        for name, value in kwargs.items():
            param = by_name.get(name)
            if not param:
                continue  # not a parameter of the operation
            original, location = param.original_name, param.param_location
            if location == "path":
                path_params[original] = encode_path_param(
                    name=original, value=to_param_string(value)
                )
            elif value is None:
                continue
            elif location == "query":
                query_params[original] = value
            elif location == "header":
                header_params[original] = to_param_string(value)
            elif location == "cookie":
                cookie_params[original] = to_param_string(value)
        url = url_for(self.endpoint, parameters, path_params, query_params)
        body_kwargs = body_for(self.operation, parameters, kwargs, header_params)
        for key, value in self._default_headers.items():
            header_params.setdefault(key, value)
        return {
            "method": method,
            "url": url,
            "params": {k: v for k, v in query_params.items() if v is not None},
            "headers": header_params,
            "cookies": cookie_params,
            **body_kwargs,
        }

    async def run_async(
        self, *, args: dict[str, Any], tool_context: ToolContext | None
    ) -> dict[str, Any]:
        return await self.call(args=args, tool_context=tool_context)

    async def call(
        self, *, args: dict[str, Any], tool_context: ToolContext | None
    ) -> dict[str, Any]:
        """Sends the request; the decoded JSON response, `{"text": ...}` for another
        body, or 2.13's error result for an HTTP error, a refused URL or a timeout."""
        params = list(self._operation_parser.get_parameters())
        api_args = dict(args)  # the caller's dict goes to callbacks: leave it as it was
        for param in params:
            schema = param.param_schema
            if param.py_name not in api_args and param.required:
                if isinstance(schema, models.Schema) and schema.default is not None:
                    api_args[param.py_name] = schema.default  # type: ignore[index]
        auth_param, auth_args = self._auth_parameter()
        if auth_param and auth_args:
            params = [auth_param, *params]
            api_args.update(auth_args)
        try:
            request = self._prepare_request_params(params, api_args)
        except InputValidationError as error:
            return self._format_error_response(str(error))
        if self._ssl_verify is not None:
            request["verify"] = self._ssl_verify
        if self._header_provider is not None and tool_context is not None:
            extra = self._header_provider(tool_context)
            if extra:
                request.setdefault("headers", {}).update(extra)
        method, url = request.get("method", "").upper(), request.get("url", "")
        try:
            response = await _http.send(
                httpx_client_factory=self._httpx_client_factory,
                allow_private_network_access=self._allow_private_network_access,
                **request,
            )
        except ValueError as error:
            return self._format_error_response(str(error))
        except httpx.TimeoutException as error:
            self._logger.warning("API call timed out for tool %s: %s %s", self.name, method, url)
            return self._format_error_response(f"Request timed out ({type(error).__name__}).")
        except httpx.ConnectError as error:
            if retry_available.get():
                raise TransientToolError(
                    f"RestApiTool {self.name}: {method} {url} failed"
                    f" ({error or type(error).__name__}); retrying"
                ) from error
            raise
        self._logger.debug("API Response: %s %s - Status: %d", method, url, response.status_code)
        return self._result(response)

    def _result(self, response: httpx.Response) -> dict[str, Any]:
        try:
            response.raise_for_status()
            return response.json()  # type: ignore[no-any-return]
        except httpx.HTTPStatusError:
            details = response.text
            self._logger.warning(
                "API call failed for tool %s: Status %d - %s",
                self.name,
                response.status_code,
                details,
            )
            return self._format_error_response(f"Status Code: {response.status_code}, {details}")
        except ValueError:
            self._logger.debug("API Response (non-JSON): %s", response.text)
            return {"text": response.text}

    def _format_error_response(self, error_message: str) -> dict[str, str]:
        return {
            "error": (
                f"Tool {self.name} execution failed. Analyze this execution error"
                " and your inputs. Retry with adjustments if applicable. But"
                " make sure don't retry more than 3 times. Execution Error:"
                f" {error_message}"
            )
        }

    def _detect_error_in_response(self, response: Any) -> str | None:
        if isinstance(response, dict) and response.get("error"):
            return "HTTP_ERROR"
        return None

    def __str__(self) -> str:
        return (
            f'RestApiTool(name="{self.name}", description="{self.description}",'
            f' endpoint="{self.endpoint}")'
        )

    def __repr__(self) -> str:
        return (
            f'RestApiTool(name="{self.name}", description="{self.description}",'
            f' endpoint="{self.endpoint}", operation="{self.operation}",'
            f' auth_scheme="{self.auth_scheme}")'
        )
