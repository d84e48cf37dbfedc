"""`python -m worker`: configuration mistakes stop it at once with a clear message.

Runs on: test process only (the worker's `serve`, with no Temporal reachable).
"""

from __future__ import annotations

import pytest

from worker.__main__ import parse_args, serve

ROOT_APP = "examples/weather"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DURABLE_ADK_WORKFLOW_SANDBOX", "maybe", "must be one of off, strict"),
        ("DURABLE_ADK_SQLITE_SYNCHRONOUS", "sometimes", "NORMAL or FULL"),
    ],
)
async def test_a_bad_setting_is_reported_before_connecting(
    monkeypatch, tmp_path, capsys, variable, value, message
):
    monkeypatch.setenv(variable, value)
    # an address nobody listens on: the check must come first, so no connect is tried
    args = parse_args(
        [
            ROOT_APP,
            "--address",
            "127.0.0.1:9",
            "--db",
            str(tmp_path / "s.db"),
            "--log-format",
            "json",
        ]
    )
    from worker._logging import configure_logging

    configure_logging("json", "INFO")
    assert await serve(args) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "bad configuration" in text and message in text
    assert "cannot connect" not in text
