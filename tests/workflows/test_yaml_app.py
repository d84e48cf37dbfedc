"""An app declared in Agent Config YAML (examples/yaml_helpdesk) runs like any app: the
embedded Runner runs its tree, and `python -m worker` serves it to the client CLI
(the commands of the README's "Agent Config YAML" section, run as written).

Runs on: test process (Runner on the session's local Temporal) and subprocesses
(worker, client).
"""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
import time
import uuid

from adk.agents.config_agent_utils import from_config
from tests.workflows.helpers import runner_for, simplify, turn
from tests.workflows.test_readme_commands import REPO, cli_env
from worker import load_app

EXAMPLE = REPO / "examples" / "yaml_helpdesk"


def section_commands() -> list[list[str]]:
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Agent Config YAML\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, flags=re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines() if line.strip()]


async def test_the_embedded_runner_runs_a_yaml_tree(temporal_env, monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))  # the app's code references
    agent = from_config(str(EXAMPLE / "root_agent.yaml"))
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "What is the total of invoice 1042?", session="yaml-embedded")
        again = await turn(runner, "My connection is down", session="yaml-embedded")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="yaml-embedded"
        )
    assert simplify(events) == [
        ("user", "What is the total of invoice 1042?"),
        ("helpdesk", ("call", "transfer_to_agent", {"agent_name": "billing"})),
        ("helpdesk", ("response", "transfer_to_agent", {"result": None})),
        ("billing", ("call", "invoice_total", {"invoice": "1042"})),
        ("billing", ("response", "invoice_total", {"invoice": "1042", "total_eur": 42.5, "status": "paid"})),
        ("billing", "Invoice 1042 comes to 42.5 EUR and is paid."),
    ]  # fmt: skip
    # turn 2 starts at billing (the agent that answered last), which hands over to its peer
    assert simplify(again) == [
        ("user", "My connection is down"),
        ("billing", ("call", "transfer_to_agent", {"agent_name": "tech_support"})),
        ("billing", ("response", "transfer_to_agent", {"result": None})),
        ("tech_support", ("call", "restart_router", {})),
        ("tech_support", ("response", "restart_router", {
            "status": "restarted", "restarts": 1, "note": "restart_router ran for tech_support",
        })),  # the after_tool callback's note
        ("tech_support", "I restarted your router; it should be back in a minute."),
    ]  # fmt: skip
    assert session.state["helpdesk_model_calls"] == 1  # the root's callback, by code reference
    assert session.state["last_billing_answer"] == "Invoice 1042 comes to 42.5 EUR and is paid."


def test_the_worker_loads_the_example_as_an_app():
    app = load_app(str(EXAMPLE))
    assert app.name == "yaml_helpdesk"
    billing, tech = app.root_agent.sub_agents
    assert (billing.name, tech.name) == ("billing", "tech_support")
    assert billing.model == "" and billing.model_name == "offline-helpdesk-model"  # inherited


async def test_the_readme_commands_run_a_yaml_app(temporal_env, tmp_path):
    commands = section_commands()
    assert [c[:3] for c in commands] == [["python", "-m", "worker"], ["python", "-m", "client"]]
    address = temporal_env.client.service_client.config.target_host
    env = cli_env(address, tmp_path, f"yaml-{uuid.uuid4().hex[:8]}")
    log = tmp_path / "worker.log"
    worker_argv, client_argv = ([sys.executable, *c[1:]] for c in commands)
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            worker_argv, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while "worker started" not in log.read_text():
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            await asyncio.sleep(0.1)
        done = await asyncio.to_thread(
            subprocess.run,
            client_argv,
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{log.read_text()}"
    assert '[billing] → invoice_total(invoice="1042")' in done.stdout
    assert "final answer: Invoice 1042 comes to 42.5 EUR and is paid." in done.stdout
    print(done.stdout)


def test_a_bad_yaml_app_stops_the_worker_before_it_connects(tmp_path, capsys):
    from worker.__main__ import parse_args, serve
    from worker._logging import configure_logging

    app = tmp_path / "bad_app"
    app.mkdir()
    (app / "root_agent.yaml").write_text("name: a\ninstruction: x\nmodle: gemini-2.5-flash\n")
    args = parse_args(
        [
            str(app),
            "--address",
            "127.0.0.1:9",
            "--db",
            str(tmp_path / "s.db"),
            "--log-format",
            "json",
        ]
    )
    configure_logging("json", "INFO")
    assert asyncio.run(serve(args)) == 2
    text = capsys.readouterr()
    lines = [line for line in (text.out + text.err).splitlines() if "cannot load app" in line]
    assert len(lines) == 1 and "modle: Extra inputs are not permitted (LlmAgentConfig)" in lines[0]
    assert "root_agent.yaml" in lines[0] and "cannot connect" not in text.out + text.err
