"""OpenAPI tools: declarations, requests and results against google-adk 2.13's.

Runs on: test process only (the requests go to a stdlib HTTP server on loopback).
"""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

pytest.importorskip("google.adk")
# 2.13's own warnings: its ToolAuthHandler calls a method it deprecated, and it passes
# httpx per-request cookies and raw `data=` (ours: cookies on the built request, raw
# bodies as `content=`, the same bytes)
pytestmark = [
    pytest.mark.filterwarnings("ignore:This method is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:Setting per-request cookies:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning"),
]

from google.adk.tools.openapi_tool import OpenAPIToolset as RefToolset  # noqa: E402
from google.adk.tools.openapi_tool.auth.auth_helpers import (  # noqa: E402
    token_to_scheme_credential as ref_token_to_scheme_credential,
)

from adk.tools.openapi_tool import OpenAPIToolset  # noqa: E402
from adk.tools.openapi_tool.auth.auth_helpers import token_to_scheme_credential  # noqa: E402

PETSTORE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://pets.example.com/v1/"}],
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "summary": "List pets",
                "parameters": [
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 10}},
                    {
                        "name": "from",
                        "in": "query",
                        "description": "Offset",
                        "schema": {"type": "string"},
                    },
                    {
                        "name": "tags",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {
                        "name": "X-Request-Id",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "The pets",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Pet"},
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "createPet",
                "description": "Adds a pet.",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NewPet"}}
                    },
                },
                "responses": {"201": {"description": "Created"}},
            },
        },
        "/pets/{petId}": {
            "parameters": [
                {
                    "name": "petId",
                    "in": "path",
                    "description": "The pet",
                    "schema": {"type": "string"},
                },
                {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
            ],
            "get": {
                "summary": "One pet",
                "parameters": [{"name": "verbose", "in": "query", "schema": {"type": "integer"}}],
                "responses": {
                    "200": {
                        "description": "A pet",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                        },
                    }
                },
            },
            "delete": {"operationId": "delete-pet", "responses": {"204": {"description": "gone"}}},
        },
    },
    "components": {
        "schemas": {
            "Pet": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {
                    "id": {"type": "integer", "format": "int64"},
                    "name": {"type": "string", "description": "Its name"},
                    "kind": {"type": "string", "enum": ["cat", "dog"]},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                },
            },
            "Owner": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "pets": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
                },
            },
            "NewPet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "description": "Its name", "maxLength": 40},
                    "kind": {"type": "String", "enum": ["cat", "dog"]},
                    "birthDate": {"type": ["string", "null"], "format": "date"},
                    "weight": {"type": "Any", "title": "Weight"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        }
    },
}

YAML_SPEC = """
openapi: 3.0.0
info: {title: Misc, version: '1'}
servers: [{url: 'https://misc.example.com'}]
security: [{api_key: []}]
components:
  securitySchemes:
    api_key: {type: apiKey, in: header, name: X-Api-Key}
    bearer: {type: http, scheme: bearer}
paths:
  /notes/{noteId}/lines:
    put:
      summary: Replace the lines
      security: [{bearer: []}]
      parameters:
        - {name: noteId, in: path, schema: {type: integer}}
      requestBody:
        description: The lines
        content:
          application/json:
            schema: {type: array, items: {type: string}}
      responses:
        '200': {description: ok, content: {text/plain: {schema: {type: string}}}}
  /echo:
    post:
      operationId: EchoText
      requestBody:
        content:
          text/plain:
            schema: {type: string, description: What to echo}
      responses:
        default: {description: echo}
  /choose:
    post:
      operationId: choose_one
      security: []
      requestBody:
        content:
          application/json:
            schema:
              oneOf: [{type: string}, {type: integer}]
      responses: {'200': {description: ok}}
  /search:
    get:
      operationId: a_very_long_operation_identifier_that_goes_well_beyond_sixty_characters_one
      parameters:
        - {name: q, in: query, required: true, schema: {type: string}}
        - {name: q, in: header, schema: {type: string}}
      responses: {'200': {description: ok}}
  /search2:
    get:
      operationId: a_very_long_operation_identifier_that_goes_well_beyond_sixty_characters_two
      responses: {'200': {description: ok}}
"""


EDGES: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Edges", "version": "1"},
    "paths": {
        "/items/{id}": {
            "parameters": [{"$ref": "#/components/parameters/Id"}],
            "patch": {
                "operationId": "PatchItem_v2",
                "summary": "Patch",
                "description": "Patches an item.\n\nWith *markdown*.",
                "deprecated": True,
                "parameters": [
                    {"name": "filter", "in": "query", "content": {"application/json": {}}},
                    {"name": "if", "in": "header", "schema": {"type": "integer", "minimum": 1}},
                    {"name": "x-trace", "in": "header", "schema": {"type": "string"}, "x-ext": 1},
                ],
                "requestBody": {"$ref": "#/components/requestBodies/Patch"},
                "responses": {
                    "2XX": {"description": "range"},
                    "default": {"description": "error"},
                    "200": {"$ref": "#/components/responses/Item"},
                },
            },
            "post": {
                "operationId": "chooseItem",
                "requestBody": {
                    "description": "One of",
                    "content": {
                        "application/json": {
                            "schema": {
                                "anyOf": [{"type": "string"}, {"$ref": "#/components/schemas/Item"}]
                            }
                        }
                    },
                },
                "responses": {"201": {"description": "made"}},
            },
            "put": {
                "operationId": "putItem",
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {"type": "integer", "description": "A number"}
                        },
                        "text/plain": {"schema": {"type": "string"}},
                    }
                },
                "responses": {},
            },
        }
    },
    "components": {
        "parameters": {
            "Id": {
                "name": "id",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "pattern": "^[a-z]+$"},
            }
        },
        "requestBodies": {
            "Patch": {
                "content": {
                    "application/merge-patch+json": {
                        "schema": {
                            "allOf": [{"$ref": "#/components/schemas/Item"}],
                            "type": "object",
                            "properties": {
                                "meta": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                    "nullable": True,
                                    "example": {"a": "b"},
                                },
                                "self": {"$ref": "#/components/schemas/Item"},
                                "readOnlyThing": {
                                    "type": "string",
                                    "readOnly": True,
                                    "default": "x",
                                },
                            },
                            "required": ["self"],
                        }
                    }
                }
            }
        },
        "responses": {
            "Item": {
                "description": "The item",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}},
            }
        },
        "schemas": {
            "Item": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "examples": ["a"]},
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
                    "kind": {"type": ["string", "null"], "enum": ["a", "b", None]},
                },
            }
        },
    },
}


def _declaration(tool: Any) -> str:
    return json.dumps(tool._get_declaration().model_dump(mode="json", exclude_none=True))


def _or_error(make: Any) -> str:
    try:
        return str(make())
    except Exception as error:  # e.g. a preserved name that is no Python identifier
        return f"{type(error).__name__}: {error}"


def _described(tools: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (
            tool.name,
            tool.description,
            _declaration(tool),
            tool._operation_parser.get_pydoc_string(),
            _or_error(tool._operation_parser.get_signature_parameters),
            str(tool._operation_parser.get_annotations()),
            tool.endpoint.model_dump(),
            None if tool.auth_scheme is None else tool.auth_scheme.model_dump(by_alias=True),
        )
        for tool in tools
    ]


async def _both(**kwargs: Any) -> tuple[list[Any], list[Any]]:
    ours = await OpenAPIToolset(**copy.deepcopy(kwargs)).get_tools()
    reference = await RefToolset(**copy.deepcopy(kwargs)).get_tools()
    return ours, reference


@pytest.mark.parametrize(
    "kwargs",
    [
        {"spec_dict": PETSTORE},
        {"spec_str": json.dumps(PETSTORE)},
        {"spec_dict": PETSTORE, "preserve_property_names": True},
        {"spec_str": YAML_SPEC, "spec_str_type": "yaml"},
        {"spec_dict": EDGES},
        {"spec_dict": EDGES, "preserve_property_names": True},
    ],
    ids=["dict", "json", "preserve_names", "yaml", "edges", "edges_preserve_names"],
)
async def test_tools_and_declarations_are_google_adks(kwargs: dict[str, Any]) -> None:
    ours, reference = await _both(**kwargs)
    assert _described(ours) == _described(reference)
    assert len(ours) >= 3


async def test_names_without_operation_id_and_collisions() -> None:
    pets = [t.name for t in await OpenAPIToolset(spec_dict=PETSTORE).get_tools()]
    assert pets == ["list_pets", "create_pet", "pets_pet_id_get", "delete_pet"]
    misc = [
        t.name for t in await OpenAPIToolset(spec_str=YAML_SPEC, spec_str_type="yaml").get_tools()
    ]
    assert misc[0] == "notes_note_id_lines_put"
    assert misc[-2:] == [
        "a_very_long_operation_identifier_that_goes_well_beyond_sixty",
        "a_very_long_operation_identifier_that_goes_well_beyond_six_2",
    ]


async def test_filter_get_tool_and_prefix() -> None:
    def only_reads(tool: Any, readonly_context: Any = None) -> bool:
        return tool.name.startswith("list") or tool.name.endswith("_get")

    for make in (OpenAPIToolset, RefToolset):
        listed = make(spec_dict=PETSTORE, tool_filter=["create_pet", "delete_pet"])
        assert [t.name for t in await listed.get_tools()] == ["create_pet", "delete_pet"]
        assert listed.get_tool("list_pets") is not None  # get_tool ignores the filter
        assert listed.get_tool("nope") is None
        predicate = make(spec_dict=PETSTORE, tool_filter=only_reads, tool_name_prefix="pets")
        prefixed = await predicate.get_tools_with_prefix(None)
        assert [t.name for t in prefixed] == ["pets_list_pets", "pets_pets_pet_id_get"]
        assert prefixed[0]._get_declaration().name == "pets_list_pets"


CALLS = [
    (
        "list_pets",
        {
            "limit": 3,
            "param_from": "x/y",
            "tags": ["a", "b"],
            "x_request_id": 7,
            "session": True,
            "ignored": 1,
        },
    ),
    ("list_pets", {"x_request_id": "r"}),  # the required-with-default-only rule
    ("create_pet", {"name": "Rex", "kind": "dog", "tags": ["good"]}),
    ("pets_pet_id_get", {"pet_id": "a b/c", "verbose": None}),
]


@pytest.mark.parametrize(("name", "args"), CALLS)
def test_request_is_google_adks(name: str, args: dict[str, Any]) -> None:
    sides = []
    for make in (OpenAPIToolset, RefToolset):
        tool = make(spec_dict=PETSTORE).get_tool(name)
        request = tool._prepare_request_params(tool._operation_parser.get_parameters(), args)
        request["headers"].pop("User-Agent")  # durable-adk/<version> vs google-adk/2.13.0
        sides.append(request)
    assert sides[0] == sides[1]


@pytest.mark.parametrize("segment", ["..", "a/./b"])
def test_dot_segments_in_a_path_are_refused(segment: str) -> None:
    tool = OpenAPIToolset(spec_dict=PETSTORE).get_tool("pets_pet_id_get")
    result = asyncio.run(tool.call(args={"pet_id": segment}, tool_context=None))
    reference = RefToolset(spec_dict=PETSTORE).get_tool("pets_pet_id_get")
    assert result == asyncio.run(reference.call(args={"pet_id": segment}, tool_context=None))
    assert "must not contain current-directory" in result["error"]


class _Api(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else None
        if self.path.startswith("/v1/pets/missing"):
            self._send(404, b'{"message": "no such pet"}')
        elif self.path.startswith("/v1/pets/text"):
            self._send(200, b"plain words", "text/plain")
        else:
            echo = {
                "method": self.command,
                "path": self.path,
                "headers": {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower()
                    in ("x-request-id", "x-api-key", "authorization", "cookie", "content-type")
                },
                "body": body,
            }
            self._send(200, json.dumps(echo).encode())

    do_GET = do_POST = do_DELETE = do_PUT = _answer

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        return None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def _spec_at(url: str) -> dict[str, Any]:
    spec = copy.deepcopy(PETSTORE)
    spec["servers"] = [{"url": url}]
    return spec


@pytest.mark.parametrize(
    ("name", "args"),
    [
        *CALLS,
        ("pets_pet_id_get", {"pet_id": "missing"}),  # an HTTP error: 2.13's error result
        ("pets_pet_id_get", {"pet_id": "text"}),  # not JSON: {"text": ...}
        ("delete_pet", {"pet_id": "1"}),
    ],
)
async def test_results_are_google_adks(server: str, name: str, args: dict[str, Any]) -> None:
    results = []
    for make, token in (
        (OpenAPIToolset, token_to_scheme_credential),
        (RefToolset, ref_token_to_scheme_credential),
    ):
        scheme, credential = token("apikey", "header", "X-Api-Key", "sekret")
        toolset = make(
            spec_dict=_spec_at(server),
            auth_scheme=scheme,
            auth_credential=credential,
            allow_private_network_access=True,
        )
        results.append(await toolset.get_tool(name).call(args=dict(args), tool_context=None))
    assert results[0] == results[1]
    if name == "pets_pet_id_get" and args["pet_id"] == "missing":
        assert results[0]["error"].endswith('Status Code: 404, {"message": "no such pet"}')
    elif args.get("pet_id") != "text":
        assert results[0]["headers"]["X-Api-Key"] == "sekret"


async def test_private_targets_are_refused_by_default(server: str) -> None:
    results = []
    for make in (OpenAPIToolset, RefToolset):
        tool = make(spec_dict=_spec_at(server)).get_tool("delete_pet")
        results.append(await tool.call(args={"pet_id": "1"}, tool_context=None))
    assert results[0] == results[1]
    assert results[0]["error"].endswith("Execution Error: Blocked host: 127.0.0.1")
    for url in (
        "http://localhost:1/v1",
        "http://metadata.google.internal/v1",
        "ftp://x.example.com",
    ):
        tool = OpenAPIToolset(spec_dict=_spec_at(url)).get_tool("delete_pet")
        reference = RefToolset(spec_dict=_spec_at(url)).get_tool("delete_pet")
        assert await tool.call(args={"pet_id": "1"}, tool_context=None) == await reference.call(
            args={"pet_id": "1"}, tool_context=None
        )


async def test_bearer_and_basic_credentials(server: str) -> None:
    from adk.auth.auth_credential import (
        AuthCredential,
        AuthCredentialTypes,
        HttpAuth,
        HttpCredentials,
    )
    from adk.tools.openapi_tool.auth.auth_helpers import dict_to_auth_scheme

    scheme, credential = token_to_scheme_credential("oauth2Token", credential_value="tok")
    toolset = OpenAPIToolset(
        spec_dict=_spec_at(server),
        auth_scheme=scheme,
        auth_credential=credential,
        allow_private_network_access=True,
    )
    result = await toolset.get_tool("delete_pet").call(args={"pet_id": "1"}, tool_context=None)
    assert result["headers"]["Authorization"] == "Bearer tok"
    basic = AuthCredential(
        auth_type=AuthCredentialTypes.HTTP,
        http=HttpAuth(
            scheme="basic", credentials=HttpCredentials(username="u", password="hunter2")
        ),
    )
    toolset = OpenAPIToolset(
        spec_dict=_spec_at(server),
        auth_scheme=dict_to_auth_scheme({"type": "http", "scheme": "basic"}),
        auth_credential=basic,
        allow_private_network_access=True,
    )
    result = await toolset.get_tool("delete_pet").call(args={"pet_id": "1"}, tool_context=None)
    assert result["headers"]["Authorization"] == "Basic dTpodW50ZXIy"
    assert "hunter2" not in repr(basic)  # secrets stay out of reprs


async def test_flows_that_need_the_credential_request_are_refused() -> None:
    from adk.auth.auth_credential import AuthCredential, AuthCredentialTypes, OAuth2Auth

    oauth = AuthCredential(auth_type=AuthCredentialTypes.OAUTH2, oauth2=OAuth2Auth(client_id="c"))
    with pytest.raises(NotImplementedError, match="OAuth2"):
        OpenAPIToolset(spec_dict=PETSTORE, auth_credential=oauth)
    # the spec asks for an API key and none was given: 2.13 would ask the user for one
    toolset = OpenAPIToolset(spec_str=YAML_SPEC, spec_str_type="yaml")
    with pytest.raises(NotImplementedError, match="adk_request_credential"):
        await toolset.get_tool("echo_text").call(args={"body": "hi"}, tool_context=None)
    from adk.tools.openapi_tool.auth import auth_helpers

    with pytest.raises(NotImplementedError, match="service-account"):
        auth_helpers.service_account_scheme_credential(None)
    with pytest.raises(NotImplementedError, match="credential_exchangers"):
        import adk.tools.openapi_tool.auth.credential_exchangers  # noqa: F401


BODIES: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "Bodies", "version": "1"},
    "servers": [{"url": "http://93.184.216.34/api?fixed=1"}],
    "security": [{"key": []}],
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "key"}}},
    "paths": {
        f"/{kind.replace('/', '_')}": {
            "post": {
                "operationId": f"send_{kind.replace('/', '_').replace('-', '_')}",
                "requestBody": {"content": {kind: {"schema": schema}}},
                "responses": {"200": {"description": "ok"}},
            }
        }
        for kind, schema in [
            ("application/x-www-form-urlencoded", {"type": "object", "properties": {"a": {}}}),
            ("text/plain", {"type": "string"}),
            ("application/octet-stream", {"type": "string", "format": "binary"}),
            ("application/merge-patch+json", {"type": "array", "items": {"type": "integer"}}),
            ("multipart/form-data", {"type": "object", "properties": {"f": {"type": "string"}}}),
        ]
    },
}
BODY_CALLS = [
    ("send_application_x_www_form_urlencoded", {"a": "b c"}),
    ("send_text_plain", {"body": "hello"}),
    ("send_application_octet_stream", {"body": "raw"}),
    ("send_application_merge_patch_json", {"array": [1, 2]}),
    ("send_multipart_form_data", {"f": "content"}),
]


def _recorded(make: Any, spec: dict[str, Any], name: str, args: dict[str, Any], **kw: Any) -> Any:
    """What the tool sent (through a MockTransport) and what it returned."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if kw.get("fail"):
            raise kw["fail"]
        return httpx.Response(kw.get("status", 200), text=kw.get("text", '{"ok": true}'))

    toolset = make(
        spec_dict=copy.deepcopy(spec),
        httpx_client_factory=lambda: httpx.AsyncClient(transport=httpx.MockTransport(answer)),
        **{k: v for k, v in kw.items() if k in ("auth_credential", "allow_private_network_access")},
    )
    result = asyncio.run(toolset.get_tool(name).call(args=dict(args), tool_context=None))
    sent = [
        (
            r.method,
            str(r.url),
            sorted((k, v) for k, v in r.headers.items() if k not in ("user-agent", "content-type")),
            r.headers.get("content-type", "").split(";")[0],
            r.extensions.get("sni_hostname"),
            r.read() if "multipart" not in r.headers.get("content-type", "") else b"<multipart>",
        )
        for r in seen
    ]
    return sent, result


def _credential(ours: bool) -> Any:
    if ours:
        from adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
    else:
        from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
    return AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key="k1")


@pytest.mark.parametrize(("name", "args"), BODY_CALLS)
def test_bodies_and_a_spec_declared_key_are_sent_as_google_adk_sends_them(
    name: str, args: dict[str, Any]
) -> None:
    """A public IP literal: the request is vetted and pinned, as in 2.13."""
    ours = _recorded(OpenAPIToolset, BODIES, name, args, auth_credential=_credential(True))
    reference = _recorded(RefToolset, BODIES, name, args, auth_credential=_credential(False))
    assert ours == reference
    assert "key=k1" in ours[0][0][1] and "fixed=1" in ours[0][0][1]


@pytest.mark.parametrize(
    "outcome",
    [
        {"status": 500, "text": "boom"},
        {"text": "not json"},
        {"fail": httpx.ReadTimeout("slow")},
        {"fail": httpx.ConnectTimeout("slow")},
    ],
    ids=["500", "text", "read_timeout", "connect_timeout"],
)
def test_outcomes_are_google_adks(outcome: dict[str, Any]) -> None:
    spec = _spec_at("http://93.184.216.34/v1")
    ours = _recorded(OpenAPIToolset, spec, "delete_pet", {"pet_id": "1"}, **outcome)
    reference = _recorded(RefToolset, spec, "delete_pet", {"pet_id": "1"}, **outcome)
    assert ours == reference
    assert ours[0][0][1] == "http://93.184.216.34/v1/pets/1"  # it was sent
    expected = {"500": "Status Code: 500, boom", "text": None, "slow": "Request timed out"}
    if "error" in ours[1]:
        assert any(e and e in ours[1]["error"] for e in expected.values())
    else:
        assert ours[1] == {"text": "not json"}


def test_an_unresolvable_host_is_google_adks_error() -> None:
    spec = _spec_at("http://no-such-host.invalid/v1")
    ours = _recorded(OpenAPIToolset, spec, "delete_pet", {"pet_id": "1"})
    reference = _recorded(RefToolset, spec, "delete_pet", {"pet_id": "1"})
    assert ours == reference
    assert ours[1]["error"].endswith("Unable to resolve host: no-such-host.invalid")


def _http_credential(ours: bool, **http: Any) -> Any:
    if ours:
        from adk.auth import auth_credential as module
    else:
        from google.adk.auth import auth_credential as module
    credentials = module.HttpCredentials(**http.pop("credentials"))
    return module.AuthCredential(
        auth_type=module.AuthCredentialTypes.HTTP,
        http=module.HttpAuth(credentials=credentials, **http),
    )


@pytest.mark.parametrize(
    ("scheme", "http"),
    [
        (
            {
                "type": "oauth2",
                "flows": {"implicit": {"authorizationUrl": "https://a", "scopes": {}}},
            },
            {"scheme": "bearer", "credentials": {"token": "t0k"}},
        ),
        (
            {"type": "http", "scheme": "basic"},
            {"scheme": "basic", "credentials": {"username": "u"}},
        ),
        (
            {"type": "http", "scheme": "bearer", "description": "The token"},
            {
                "scheme": "bearer",
                "credentials": {"token": "t0k"},
                "additional_headers": {"X-Extra": "1"},
            },
        ),
    ],
    ids=["oauth2_scheme_bearer_token", "basic", "bearer_extra_headers"],
)
def test_a_spec_declared_scheme_with_a_static_credential(
    scheme: dict[str, Any], http: dict[str, Any]
) -> None:
    spec = _spec_at("http://93.184.216.34/v1")
    spec["components"]["securitySchemes"] = {"auth": scheme}
    spec["security"] = [{"auth": []}]
    ours = _recorded(
        OpenAPIToolset,
        spec,
        "delete_pet",
        {"pet_id": "1"},
        auth_credential=_http_credential(True, **copy.deepcopy(http)),
    )
    reference = _recorded(
        RefToolset,
        spec,
        "delete_pet",
        {"pet_id": "1"},
        auth_credential=_http_credential(False, **copy.deepcopy(http)),
    )
    assert ours == reference
    assert any(k == "authorization" for k, _ in ours[0][0][2])


def test_an_api_key_in_a_cookie() -> None:
    spec = _spec_at("http://93.184.216.34/v1")
    spec["components"]["securitySchemes"] = {"k": {"type": "apiKey", "in": "cookie", "name": "sid"}}
    spec["security"] = [{"k": []}]
    args = {"pet_id": "1"}
    ours = _recorded(OpenAPIToolset, spec, "delete_pet", args, auth_credential=_credential(True))
    reference = _recorded(RefToolset, spec, "delete_pet", args, auth_credential=_credential(False))
    assert ours == reference
    assert ("cookie", "sid=k1") in ours[0][0][2]


@pytest.mark.parametrize(
    "spec",
    [
        {"paths": {"/a": {"get": {"parameters": [{"$ref": "other.yaml#/P"}]}}}},
        {"paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/nowhere"}}}}}},
        {"paths": {"/a": {"post": {"requestBody": {"content": {"a/b": {"schema": False}}}}}}},
    ],
    ids=["external_ref", "dangling_response_ref", "false_schema"],
)
def test_bad_specs_fail_as_google_adks(spec: dict[str, Any]) -> None:
    failures = []
    for make in (OpenAPIToolset, RefToolset):
        with pytest.raises(Exception) as caught:
            make(spec_dict=copy.deepcopy(spec))
        failures.append((type(caught.value).__name__, str(caught.value)))
    assert failures[0] == failures[1]
