"""The Runner with no setup (embedded dev server, sync run) and custom models by name."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import AsyncGenerator
from pathlib import Path

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LLMRegistry, LlmRequest, LlmResponse

from .helpers import runner_for, simplify, turn

ROOT = Path(__file__).resolve().parents[2]


def test_a_plain_script_runs_with_no_setup(tmp_path):
    """`python my_agent.py`: the Runner starts a dev server and a worker itself."""
    script = tmp_path / "my_agent.py"
    script.write_text(
        textwrap.dedent(
            """
            from google.genai import types
            from adk import Agent, Runner
            from adk.sessions import InMemorySessionService
            from adk.testing import MockModel

            def shout(text: str) -> dict:
                \"\"\"Shouts.\"\"\"
                return {"loud": text.upper()}

            agent = Agent(
                name="shouter",
                model=MockModel.create(
                    [types.Part.from_function_call(name="shout", args={"text": "hi"}), "HI!"]
                ),
                tools=[shout],
            )

            if __name__ == "__main__":
                runner = Runner(agent=agent, app_name="demo", session_service=InMemorySessionService(),
                                auto_create_session=True)
                message = types.Content(role="user", parts=[types.Part(text="say hi")])
                for event in runner.run(user_id="u", session_id="s", new_message=message):
                    for part in event.content.parts:
                        print(event.author, part.text or part.function_call or part.function_response)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # the embedded dev server prints its banner to the same stdout: keep our lines
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(("user ", "shouter "))]
    assert not any(ln.startswith("user ") for ln in lines)  # run() yields the agents' events
    assert lines[-1] == "shouter HI!"
    assert any("'loud': 'HI'" in line for line in lines)


class EchoLlm(BaseLlm):
    """A custom model: repeats the user's last words."""

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"echo-\d+"]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        said = llm_request.contents[-1].parts[0].text  # type: ignore[index]
        text = f"{self.model} says: {said}"
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


async def test_a_custom_model_resolves_by_name_through_the_registry(temporal_env):
    LLMRegistry.register(EchoLlm)
    agent = Agent(name="parrot", model="echo-7")
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hello")
    assert simplify(events)[-1] == ("parrot", "echo-7 says: hello")


async def test_an_unknown_model_name_fails_fast_with_a_clear_error(temporal_env):
    from client import InvocationFailedError

    agent = Agent(name="lost", model="no-such-model-1")
    async with runner_for(temporal_env, agent) as runner:
        try:
            await turn(runner, "hello")
        except InvocationFailedError as error:
            message = str(error)
        else:
            raise AssertionError("expected a failure")
    assert "Model no-such-model-1 not found." in message
    assert "LLMRegistry" in message


async def test_the_workflows_run_outside_the_sandbox_when_asked(temporal_env, monkeypatch):
    from temporalio.worker import UnsandboxedWorkflowRunner

    from adk.testing import MockModel
    from worker._build import workflow_runner

    monkeypatch.setenv("DURABLE_ADK_WORKFLOW_SANDBOX", "off")
    assert isinstance(workflow_runner(), UnsandboxedWorkflowRunner)
    model = MockModel.create([types.Part.from_function_call(name="double", args={"x": 2}), "4"])

    def double(x: int) -> int:
        """Doubles."""
        return 2 * x

    agent = Agent(name="calc", model=model, tools=[double])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "2*2?")
    assert simplify(events)[1:] == [
        ("calc", ("call", "double", {"x": 2})),
        ("calc", ("response", "double", {"result": 4})),
        ("calc", "4"),
    ]
