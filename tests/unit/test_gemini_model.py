"""Gemini model + error classification, with the real google-genai client against FakeGeminiServer."""

from __future__ import annotations

import email.utils
import socket
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from google.genai import errors as genai_errors
from google.genai import types

from adk.models import Gemini, LLMRegistry, LlmRequest, LlmResponse
from adk.models._errors import ModelErrorInfo, classify_model_error, parse_retry_after
from adk.testing.fake_gemini import FakeGeminiServer

API_KEY = "test-key-0123456789"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGeminiServer]:
    for var in (
        "GEMINI_API_KEY",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_GENAI_USE_ENTERPRISE",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_GENAI_API_VERSION",
        "GOOGLE_VERTEX_BASE_URL",
        "GOOGLE_GENAI_HTTP_CLIENT",
    ):
        monkeypatch.delenv(var, raising=False)
    with FakeGeminiServer() as fake:
        monkeypatch.setenv("GOOGLE_API_KEY", API_KEY)
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.base_url)
        yield fake


@pytest.fixture
async def gemini() -> AsyncIterator[Gemini]:
    llm = Gemini(model="gemini-2.5-flash")
    yield llm
    await llm.aclose()


def user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def call(llm: Gemini, request: LlmRequest, stream: bool = False) -> list[LlmResponse]:
    return [response async for response in llm.generate_content_async(request, stream=stream)]


async def call_error(llm: Gemini, request: LlmRequest) -> ModelErrorInfo:
    with pytest.raises(Exception) as caught:
        await call(llm, request)
    return classify_model_error(caught.value)


# ------------------------------------------------------------------ happy paths


async def test_plain_text(server: FakeGeminiServer, gemini: Gemini) -> None:
    server.add(FakeGeminiServer.text("Hello there"))
    responses = await call(gemini, LlmRequest(contents=[user("hi")]))

    assert len(responses) == 1
    response = responses[0]
    assert response.content is not None and response.content.parts
    assert response.content.parts[0].text == "Hello there"
    assert response.finish_reason == types.FinishReason.STOP
    assert response.usage_metadata and response.usage_metadata.total_token_count == 2
    assert response.error_code is None and not response.partial

    (request,) = server.requests
    assert request.model == "gemini-2.5-flash" and request.rpc == "generateContent"
    assert request.body["contents"] == [{"role": "user", "parts": [{"text": "hi"}]}]


async def test_function_call_round_trip(server: FakeGeminiServer, gemini: Gemini) -> None:
    server.add(
        FakeGeminiServer.function_call("get_weather", {"city": "Paris"}, id="call-1"),
        FakeGeminiServer.text("It is sunny in Paris."),
    )
    request = LlmRequest(
        model="gemini-2.0-flash",
        contents=[user("Weather in Paris?")],
        config=types.GenerateContentConfig(
            system_instruction="You are a weather bot.",
            tools=[
                types.Tool(
                    function_declarations=[
                        types.FunctionDeclaration(
                            name="get_weather",
                            description="Current weather for a city.",
                            parameters=types.Schema(
                                type=types.Type.OBJECT,
                                properties={"city": types.Schema(type=types.Type.STRING)},
                                required=["city"],
                            ),
                        )
                    ]
                )
            ],
        ),
    )
    (first,) = await call(gemini, request)
    assert first.content is not None and first.content.parts
    function_call = first.content.parts[0].function_call
    assert function_call is not None
    assert (function_call.name, function_call.args, function_call.id) == (
        "get_weather",
        {"city": "Paris"},
        "call-1",
    )

    request.contents += [
        first.content,
        types.Content(
            role="user",
            parts=[
                types.Part.from_function_response(
                    name="get_weather", response={"forecast": "sunny"}
                )
            ],
        ),
    ]
    (second,) = await call(gemini, request)
    assert second.content is not None and second.content.parts
    assert second.content.parts[0].text == "It is sunny in Paris."

    sent = server.requests[1]
    assert sent.model == "gemini-2.0-flash"  # llm_request.model wins over Gemini.model
    body = sent.body
    assert body["systemInstruction"]["parts"] == [{"text": "You are a weather bot."}]
    (declaration,) = body["tools"][0]["functionDeclarations"]
    assert declaration["name"] == "get_weather"
    assert declaration["parameters"]["properties"]["city"]["type"] == "STRING"
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    assert body["contents"][1]["parts"][0]["functionCall"]["name"] == "get_weather"
    assert body["contents"][2]["parts"][0]["functionResponse"] == {
        "name": "get_weather",
        "response": {"forecast": "sunny"},
    }


async def test_streaming_yields_partials_then_aggregate(
    server: FakeGeminiServer, gemini: Gemini
) -> None:
    server.add(
        [
            FakeGeminiServer.text("Hel", finish_reason=None),
            FakeGeminiServer.text("lo", finish_reason=None),
            FakeGeminiServer.function_call("get_weather", {"city": "Oslo"}),
        ]
    )
    responses = await call(gemini, LlmRequest(contents=[user("hi")]), stream=True)

    assert [r.partial for r in responses] == [True, True, True, False]
    final = responses[-1]
    assert final.content is not None and final.content.parts
    assert final.content.parts[0].text == "Hello"
    assert final.content.parts[1].function_call is not None
    assert final.content.parts[1].function_call.args == {"city": "Oslo"}
    assert final.finish_reason == types.FinishReason.STOP and final.error_code is None
    assert server.requests[0].rpc == "streamGenerateContent"
    assert server.requests[0].query.get("alt") == ["sse"]


async def test_api_key_sent_but_never_recorded(server: FakeGeminiServer, gemini: Gemini) -> None:
    server.add(FakeGeminiServer.text("ok"))
    await call(gemini, LlmRequest(contents=[user("hi")]))
    (request,) = server.requests
    assert request.headers["x-goog-api-key"] == "<redacted>"
    assert API_KEY not in repr(server.requests)


async def test_request_cannot_redirect_endpoint_or_enable_sdk_retries(
    server: FakeGeminiServer, gemini: Gemini
) -> None:
    server.add(FakeGeminiServer.error(503, "Overloaded"))
    request = LlmRequest(
        contents=[user("hi")],
        config=types.GenerateContentConfig(
            http_options=types.HttpOptions(
                base_url="http://127.0.0.1:9/",  # would receive the worker's key
                headers={"x-goog-api-key": "from-request", "x-custom": "1"},
                retry_options=types.HttpRetryOptions(attempts=5, initial_delay=0),
            )
        ),
    )
    info = await call_error(gemini, request)
    assert info.error_type == "ModelServerError" and info.retryable
    (sent,) = server.requests  # reached the worker's endpoint, exactly once
    assert sent.headers["x-custom"] == "1"
    assert request.config.http_options is not None  # the caller's request is not mutated
    assert request.config.http_options.base_url == "http://127.0.0.1:9/"


def test_registered_in_llm_registry() -> None:
    assert LLMRegistry.resolve("gemini-2.5-flash") is Gemini
    assert LLMRegistry.resolve("projects/p/locations/l/endpoints/123") is Gemini
    assert (
        LLMRegistry.resolve("projects/p/locations/l/publishers/google/models/gemini-2.5-pro")
        is Gemini
    )
    assert Gemini().model == "gemini-2.5-flash"


# ----------------------------------------------------------------------- errors


async def test_429_retry_after_retryable_and_single_request(
    server: FakeGeminiServer, gemini: Gemini
) -> None:
    server.add(FakeGeminiServer.error(429, "Resource exhausted", retry_after=2))
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))

    assert info.retryable and info.error_type == "ModelRateLimited"
    assert info.retry_after == 2
    assert info.status_code == 429
    assert "429" in info.message and "Resource exhausted" in info.message
    assert len(server.requests) == 1  # google-genai did not retry on its own


async def test_429_retry_info_in_body(server: FakeGeminiServer, gemini: Gemini) -> None:
    retry_info = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}
    server.add(FakeGeminiServer.error(429, "Quota exceeded", details=[retry_info]))
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert info.error_type == "ModelRateLimited" and info.retry_after == 37


async def test_500_retryable(server: FakeGeminiServer, gemini: Gemini) -> None:
    server.add(FakeGeminiServer.error(500, "Internal error encountered."))
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert info.retryable and info.error_type == "ModelServerError"
    assert "500" in info.message and "Internal error encountered." in info.message
    assert info.retry_after is None
    assert len(server.requests) == 1


async def test_400_not_retryable_with_provider_message(
    server: FakeGeminiServer, gemini: Gemini
) -> None:
    server.add(FakeGeminiServer.error(400, "Invalid JSON payload: unknown field 'foo'"))
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert not info.retryable and info.error_type == "ModelBadRequest"
    assert "400" in info.message and "INVALID_ARGUMENT" in info.message
    assert "Invalid JSON payload: unknown field 'foo'" in info.message


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (401, "Request had invalid authentication credentials."),
        (403, "Permission denied on resource project."),
        (400, "API key not valid. Please pass a valid API key."),
    ],
)
async def test_auth_errors(
    server: FakeGeminiServer, gemini: Gemini, code: int, message: str
) -> None:
    server.add(FakeGeminiServer.error(code, message))
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert not info.retryable and info.error_type == "ModelAuthError"
    assert message in info.message and "GOOGLE_API_KEY" in info.message
    assert API_KEY not in info.message


async def test_404_names_the_model(server: FakeGeminiServer) -> None:
    server.add(FakeGeminiServer.error(404, "models/gemini-nope is not found for API version v1"))
    llm = Gemini(model="gemini-nope")
    try:
        info = await call_error(llm, LlmRequest(contents=[user("hi")]))
    finally:
        await llm.aclose()
    assert not info.retryable and info.error_type == "ModelNotFound"
    assert "'gemini-nope'" in info.message


async def test_connection_refused_retryable(
    server: FakeGeminiServer, gemini: Gemini, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", f"http://127.0.0.1:{port}")
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert info.retryable and info.error_type == "ModelConnectionError"


async def test_missing_api_key_is_auth_error(
    server: FakeGeminiServer, gemini: Gemini, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY")
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert not info.retryable and info.error_type == "ModelAuthError"
    assert "GOOGLE_API_KEY" in info.message
    assert server.requests == []


async def test_script_exhausted_answers_500(server: FakeGeminiServer, gemini: Gemini) -> None:
    info = await call_error(gemini, LlmRequest(contents=[user("hi")]))
    assert info.error_type == "ModelServerError"
    assert "script exhausted" in info.message


# ------------------------------------------------------------- pure classifier


def test_timeouts_retryable_unknown_errors_not() -> None:
    import httpx

    # asyncio.TimeoutError is TimeoutError on 3.11+
    for exc in (TimeoutError(), TimeoutError("slow"), httpx.ReadTimeout("read")):
        info = classify_model_error(exc)
        assert info.retryable and info.error_type == "ModelTimeout", exc
    # a custom model's own exception is not known to be transient: it fails at once
    info = classify_model_error(RuntimeError("boom"))
    assert not info.retryable and info.error_type == "ModelError" and "boom" in info.message
    info = classify_model_error(ConnectionResetError("reset"))
    assert info.retryable and info.error_type == "ModelConnectionError"


def test_classify_status_codes_without_response() -> None:
    for code, retryable in [(408, True), (502, True), (503, True), (504, True), (422, False)]:
        exc = genai_errors.APIError.__new__(genai_errors.APIError)
        genai_errors.APIError.__init__(exc, code, {"error": {"message": "m", "code": code}})
        assert classify_model_error(exc).retryable is retryable, code


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after("2") == 2
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-3") == 0
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    seconds = parse_retry_after(future)
    assert seconds is not None and 27 <= seconds <= 31
    past = email.utils.formatdate(time.time() - 30, usegmt=True)
    assert parse_retry_after(past) == 0


def test_a_final_model_error_with_a_quoted_key_in_its_url_is_redacted() -> None:
    from activities._support import model_error
    from workflows.errors import find_raised

    exc = genai_errors.APIError.__new__(genai_errors.APIError)
    body = {"error": {"message": 'Invalid URL "https://x/v1?key=SECRETKEY"', "code": 400}}
    genai_errors.APIError.__init__(exc, 400, body)
    failure = model_error(exc, "gemini-2.5-flash")
    raised = find_raised(failure)
    assert raised is not None and "SECRETKEY" not in str(raised.args)
    assert "key=***" in raised.args[1]["error"]["message"]
