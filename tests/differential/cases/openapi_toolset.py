"""An OpenAPI toolset over a YAML spec: its operations declared to the model (path,
query, header and body parameters, `$ref`s, an operation without operationId),
filtered (a predicate reading state) and prefixed, called with an API key and a header provider reading state against a local HTTP server (stdlib
http.server on loopback, one per side) that echoes each request, plus an HTTP
error (2.13's error result), one operation's RestApiTool on its own and a plain
function beside them."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.adk.agents import LlmAgent
from google.adk.tools.openapi_tool import OpenAPIToolset
from google.adk.tools.openapi_tool.auth.auth_helpers import token_to_scheme_credential
from google.genai import types

TURNS = ["list two pets, then add Rex", "how is pet 7?"]
INITIAL_STATE = {"shift": "night"}

SPEC = """
openapi: 3.0.3
info: {title: Pets, version: '1'}
servers: [{url: '{base}'}]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets
      parameters:
        - {name: limit, in: query, description: How many, schema: {type: integer}}
        - {name: X-Request-Id, in: header, schema: {type: string}}
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
    post:
      operationId: createPet
      description: Adds a pet to the store.
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses: {'201': {description: Created}}
  /pets/{petId}:
    get:
      summary: One pet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: A pet}}
    delete:
      operationId: deletePet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string}}
      responses: {'204': {description: Gone}}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, description: The pet's name}
        kind: {type: string, enum: [cat, dog]}
        tags: {type: array, items: {type: string}}
"""


class _Api(BaseHTTPRequestHandler):
    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else None
        if self.path.endswith("/pets/7"):
            status, payload = 404, {"message": "no pet 7"}
        else:
            echoed = ("x-request-id", "x-api-key", "content-type", "x-caller")
            status, payload = (
                200,
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": {
                        k.lower(): v for k, v in self.headers.items() if k.lower() in echoed
                    },
                    "body": json.loads(body) if body else None,
                },
            )
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, *args):
        return None


def _serve():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/api"


def today() -> str:
    """Returns today's date."""
    return "2026-11-29"


def _call(tool, **args):
    return types.Part.from_function_call(name=tool, args=args)


def on_shift(tool, readonly_context=None):
    """A predicate filter reading state: deleting is not for the night shift."""
    night = readonly_context is not None and readonly_context.state.get("shift") == "night"
    return not (night and tool.name == "delete_pet")


def build(scripted):
    scheme, credential = token_to_scheme_credential("apikey", "header", "X-Api-Key", "k-123")
    spec = SPEC.replace("{base}", _serve())
    # one operation as a tool of its own (RestApiTool), as 2.13's docs show
    delete_pet = OpenAPIToolset(
        spec_str=spec, spec_str_type="yaml", allow_private_network_access=True
    ).get_tool("delete_pet")
    pets = OpenAPIToolset(
        spec_str=spec,
        spec_str_type="yaml",
        auth_scheme=scheme,
        auth_credential=credential,
        tool_filter=on_shift,
        tool_name_prefix="store",
        allow_private_network_access=True,
        header_provider=lambda ctx: {"X-Caller": f"{ctx.agent_name}/{ctx.state.get('shift')}"},
    )
    model = scripted(
        [_call("store_list_pets", limit=2, x_request_id="r-1"), _call("today")],
        _call("store_create_pet", name="Rex", kind="dog", tags=["good", "boy"]),
        "Two listed, Rex added.",
        _call("store_pets_pet_id_get", pet_id="7"),
        _call("delete_pet", pet_id="3"),
        "There is no pet 7; pet 3 is gone.",
    )
    return LlmAgent(
        name="pets_agent",
        model=model,
        instruction="Look after the pet store with its tools.",
        tools=[today, pets, delete_pet],
    )
