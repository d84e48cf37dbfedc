"""Credentials never reach the worker's logs (worker/_scrub.py, worker/_logging.py).

Runs on: process side (pure, plus stdlib logging through the configured handler).
"""

from __future__ import annotations

import io
import logging
import sys

import pytest

from worker._logging import configure_logging
from worker._scrub import REDACTED, scrub

SECRET = "s3cr3t-Tok3n-value-0123456789"


@pytest.mark.parametrize(
    "text",
    [
        f"Authorization: Bearer {SECRET}",
        f"headers={{'Authorization': 'Basic {SECRET}'}}",
        f"GET /v1/models?api_key={SECRET}&alt=sse",
        f'{{"access_token": "{SECRET}"}}',
        f"x-goog-api-key: {SECRET}",
        f"password={SECRET}",
        "key AIza" + "A" * 35,
        "token ya29." + "b" * 40,
        "sk-" + "c" * 30,
    ],
)
def test_known_credential_patterns_are_redacted(text: str) -> None:
    scrubbed = scrub(text)
    assert REDACTED in scrubbed
    assert SECRET not in scrubbed and "A" * 35 not in scrubbed
    assert "b" * 40 not in scrubbed and "c" * 30 not in scrubbed


def test_ordinary_text_is_left_alone() -> None:
    for text in ["tool lookup(key=customer42)", "max_tokens: 1000", "It is 18°C in Paris."]:
        assert scrub(text) == text


def test_a_logged_exception_and_its_traceback_are_scrubbed(monkeypatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging("json")
        try:
            raise RuntimeError(f"upstream refused: Authorization: Bearer {SECRET}")
        except RuntimeError:
            logging.getLogger("temporalio.activity").exception("Completing activity as failed")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    output = stream.getvalue()
    assert "Completing activity as failed" in output and "upstream refused" in output
    assert SECRET not in output and REDACTED in output


def test_words_that_only_look_like_credentials_stay() -> None:
    for text in [
        "Falling back to basic authentication",
        "Using Bearer authentication scheme",
        "Input token: 1048576 exceeded",
    ]:
        assert scrub(text) == text


def test_secret_named_fields_are_redacted_and_tuples_survive() -> None:
    from collections import namedtuple

    from worker._scrub import scrub_credentials

    Pair = namedtuple("Pair", "a b")
    event = scrub_credentials(
        None,
        "info",
        {"event": "login", "password": "hunter2222", "client_secret": "abc", "pair": Pair(1, "x")},
    )
    assert event["password"] == REDACTED and event["client_secret"] == REDACTED
    assert event["pair"] == Pair(1, "x") and event["event"] == "login"
    assert scrub(f"Authorization: Token {SECRET}") == f"Authorization: Token {REDACTED}"
