"""OpenAPIToolset: an OpenAPI spec's operations as tools (one RestApiTool each).

Runs on: activity side (worker process). The spec is parsed once, when the
toolset is built (in the worker, with the agent); the model step lists the tools
(filtered, prefixed) and the tool-call activity sends each call's request. The
spec and any credentials stay in the worker's agent definition: history records
the model's arguments and the function responses only.
"""

from __future__ import annotations

import json
import logging
import ssl
from collections.abc import Callable
from typing import Any, Final, Literal, Union, cast

import yaml

from ....agents.readonly_context import ReadonlyContext
from ....auth.auth_credential import AuthCredential
from ....auth.auth_schemes import AuthScheme
from ...base_toolset import BaseToolset, ToolPredicate
from .._naming import MAX_TOOL_NAME_LENGTH
from .openapi_spec_parser import OpenApiSpecParser
from .rest_api_tool import HttpxClientFactory, RestApiTool

logger = logging.getLogger(__name__)


class OpenAPIToolset(BaseToolset):
    """The operations of an OpenAPI spec as tools.

    ```python
    toolset = OpenAPIToolset(spec_str=open("petstore.yaml").read(), spec_str_type="yaml")
    agent = Agent(name="pets", model="gemini-2.5-flash", tools=[toolset])
    ```
    """

    def __init__(
        self,
        *,
        spec_dict: dict[str, Any] | None = None,
        spec_str: str | None = None,
        spec_str_type: Literal["json", "yaml"] = "json",
        auth_scheme: AuthScheme | None = None,
        auth_credential: AuthCredential | None = None,
        credential_key: str | None = None,
        tool_filter: Union[ToolPredicate, list[str]] | None = None,
        tool_name_prefix: str | None = None,
        ssl_verify: Union[bool, str, ssl.SSLContext] | None = None,
        header_provider: Callable[[ReadonlyContext], dict[str, str]] | None = None,
        httpx_client_factory: HttpxClientFactory | None = None,
        preserve_property_names: bool = False,
        allow_private_network_access: bool = False,
    ) -> None:
        """`spec_dict`, or `spec_str` (`spec_str_type` "json" or "yaml"); `auth_scheme` and
        `auth_credential` for every tool (an API key or HTTP credential: see
        `auth.auth_helpers.token_to_scheme_credential`); `credential_key` is kept for
        google.adk's API (it keys 2.13's interactive credential flow, not ported);
        `tool_filter`, `tool_name_prefix`; `ssl_verify`, `header_provider`,
        `httpx_client_factory` for every request; `preserve_property_names`: the
        spec's parameter names as they are (else snake_case);
        `allow_private_network_access`: let requests reach loopback and private
        addresses (refused by default, as in 2.13)."""
        super().__init__(tool_filter=tool_filter, tool_name_prefix=tool_name_prefix)
        self._header_provider = header_provider
        self._auth_scheme = auth_scheme
        self._auth_credential = auth_credential
        self._preserve_property_names = preserve_property_names
        if not spec_dict:
            spec_dict = self._load_spec(cast(str, spec_str), spec_str_type)
        self._ssl_verify = ssl_verify
        self._httpx_client_factory = httpx_client_factory
        self._allow_private_network_access = allow_private_network_access
        self._tools: Final[list[RestApiTool]] = list(self._parse(spec_dict))
        if auth_scheme or auth_credential:
            self._configure_auth_all(auth_scheme, auth_credential)
        if credential_key:
            self._configure_credential_key_all(credential_key)

    @property
    def _reads_context(self) -> bool:
        """durable-adk: a header provider or a predicate filter reads the session; else
        the calls run alongside the step's other calls without loading it."""
        return bool(
            self._header_provider or (self.tool_filter and not isinstance(self.tool_filter, list))
        )

    def _configure_auth_all(
        self, auth_scheme: AuthScheme | None, auth_credential: AuthCredential | None
    ) -> None:
        for tool in self._tools:
            if auth_scheme:
                tool.configure_auth_scheme(auth_scheme)
            if auth_credential:
                tool.configure_auth_credential(auth_credential)

    def _configure_credential_key_all(self, credential_key: str) -> None:
        for tool in self._tools:
            tool.configure_credential_key(credential_key)

    def configure_ssl_verify_all(
        self, ssl_verify: Union[bool, str, ssl.SSLContext] | None = None
    ) -> None:
        self._ssl_verify = ssl_verify
        for tool in self._tools:
            tool.configure_ssl_verify(ssl_verify)

    async def get_tools(  # type: ignore[override]
        self, readonly_context: ReadonlyContext | None = None
    ) -> list[RestApiTool]:
        """The spec's tools that `tool_filter` selects, in the spec's order."""
        return [tool for tool in self._tools if self._is_tool_selected(tool, readonly_context)]

    def get_tool(self, tool_name: str) -> RestApiTool | None:
        """The tool of that name (unfiltered, unprefixed), or None."""
        return next((tool for tool in self._tools if tool.name == tool_name), None)

    def _load_spec(self, spec_str: str, spec_type: Literal["json", "yaml"]) -> dict[str, Any]:
        if spec_type == "json":
            loaded: object = json.loads(spec_str)
        elif spec_type == "yaml":
            loaded = yaml.safe_load(spec_str)
        else:
            raise ValueError(f"Unsupported spec type: {spec_type}")
        if not isinstance(loaded, dict):
            raise ValueError("The OpenAPI specification must be an object")
        return cast(dict[str, Any], loaded)

    def _parse(self, openapi_spec_dict: dict[str, Any]) -> list[RestApiTool]:
        """One tool per operation; names that collide once cut to 60 characters get
        `_2`, `_3`, ... (as in 2.13)."""
        parser = OpenApiSpecParser(preserve_property_names=self._preserve_property_names)
        tools = [
            RestApiTool.from_parsed_operation(
                operation,
                ssl_verify=self._ssl_verify,
                header_provider=self._header_provider,
                httpx_client_factory=self._httpx_client_factory,
                allow_private_network_access=self._allow_private_network_access,
            )
            for operation in parser.parse(openapi_spec_dict)
        ]
        taken = {tool.name for tool in tools}
        assigned: set[str] = set()
        for tool in tools:
            if tool.name in assigned:
                base, n = tool.name, 2
                while tool.name in assigned or tool.name in taken:
                    suffix = f"_{n}"
                    tool.name = base[: MAX_TOOL_NAME_LENGTH - len(suffix)] + suffix
                    n += 1
            assigned.add(tool.name)
            logger.info("Parsed tool: %s", tool.name)
        return tools

    async def close(self) -> None:
        return None
