"""Agent Config YAML: `from_config` builds the tree google-adk 2.13 builds from the same
files, and raises what 2.13 raises on a bad one; the worker says it in one line.

Runs on: test process only (google-adk is the test-only reference; each side
loads its own copy of an app folder, through the differential kit's helpers).
"""

from __future__ import annotations

import re
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

from tests.differential import kit
from worker import AppLoadError, load_app

SIDES = (kit.REFERENCE, kit.OURS)


def make_app(tmp_path: Path, files: dict[str, str], name: str = "cfg_app") -> Path:
    folder = tmp_path / name
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(textwrap.dedent(text))
    return folder


def load_side(folder: Path, side: str, config: str = "root_agent.yaml") -> Any:
    """The side's agent, or ("raised", class, message) with the copy's path made neutral."""
    copy = kit.side_copy(folder, side)
    try:
        with warnings.catch_warnings(), kit.importable(copy):
            warnings.simplefilter("ignore")  # the reference's deprecation warnings
            return kit.from_config(side, copy / config)
    except Exception as error:
        message = str(error).replace(str(copy), "<app>").replace("google.adk", "adk")
        message = re.sub(r" at 0x[0-9a-f]+", "", message)
        return ("raised", type(error).__name__, message)


def describe(agent: Any) -> Any:
    """What a config decides about an agent, comparable across the two packages."""
    if isinstance(agent, tuple):
        return agent

    def name_of(obj: Any) -> str:
        return getattr(obj, "__name__", None) or getattr(obj, "name", None) or repr(obj)

    def names(value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        return [name_of(v) for v in value] if isinstance(value, list) else name_of(value)

    out: dict[str, Any] = {"class": type(agent).__name__, "name": agent.name}
    out["description"] = agent.description
    for field in ("before_agent_callback", "after_agent_callback"):
        out[field] = names(getattr(agent, field))
    if hasattr(agent, "max_iterations"):
        out["max_iterations"] = agent.max_iterations
    if type(agent).__name__ == "LlmAgent":
        model = agent.model
        out["model"] = (
            model if isinstance(model, str) else f"<{type(model).__name__} {model.model}>"
        )
        out["canonical_model"] = agent.canonical_model.model
        for field in (
            "instruction", "output_key", "include_contents", "disallow_transfer_to_parent",
            "disallow_transfer_to_peers",
        ):  # fmt: skip
            out[field] = getattr(agent, field)
        for field in ("generate_content_config", "static_instruction"):
            value = getattr(agent, field)
            out[field] = (
                value.model_dump(exclude_none=True) if hasattr(value, "model_dump") else value
            )
        out["output_schema"] = names(agent.output_schema)
        out["tools"] = [
            (type(t).__name__, name_of(t), describe(t.agent) if hasattr(t, "agent") else None)
            for t in agent.tools
        ]
        for field in (
            "before_model_callback", "after_model_callback", "before_tool_callback",
            "after_tool_callback",
        ):  # fmt: skip
            out[field] = names(getattr(agent, field))
    out["sub_agents"] = [describe(sub) for sub in agent.sub_agents]
    return out


def both(folder: Path, config: str = "root_agent.yaml") -> tuple[Any, Any]:
    return tuple(describe(load_side(folder, side, config)) for side in SIDES)  # type: ignore[return-value]


TOOLS_PY = """
    from pydantic import BaseModel
    from google.adk.agents import LlmAgent
    from google.adk.models.google_llm import Gemini
    from google.adk.tools import FunctionTool


    class Answer(BaseModel):
        text: str


    def lookup(key: str) -> dict:
        \"\"\"Looks a key up.\"\"\"
        return {"key": key}


    def make_tool(args):
        return FunctionTool(lookup)


    def before_model(callback_context, llm_request):
        return None


    def after_model(callback_context, llm_response):
        return None


    def before_agent(callback_context):
        return None


    custom_model = Gemini(model="gemini-2.0-flash")
    helper = LlmAgent(name="helper", instruction="help")
    not_an_agent = 42
"""


def test_a_full_tree_is_built_as_google_adks(tmp_path: Path) -> None:
    folder = make_app(
        tmp_path,
        {
            "__init__.py": "",
            "tools.py": TOOLS_PY,
            "root_agent.yaml": """
                name: root
                model: gemini-2.5-flash
                description: the root
                instruction: "Hello {user?}"
                generate_content_config: {temperature: 0.1, max_output_tokens: 200}
                static_instruction: {role: user, parts: [{text: static}]}
                disallow_transfer_to_peers: true
                tools:
                  - name: exit_loop
                  - name: cfg_app.tools.lookup
                  - name: cfg_app.tools.make_tool
                    args: {anything: 1}
                  - name: AgentTool
                    args:
                      agent: {config_path: tool_agent.yaml}
                      skip_summarization: true
                  - name: FunctionTool
                    args: {func: cfg_app.tools.lookup}
                  - name: ExampleTool
                    args:
                      examples:
                        - input: {role: user, parts: [{text: hi}]}
                          output: [{role: model, parts: [{text: hello}]}]
                before_model_callbacks:
                  - name: cfg_app.tools.before_model
                  - name: cfg_app.tools.before_model
                after_model_callbacks: [{name: google.adk.tools.exit_loop}]
                before_agent_callbacks: [{name: cfg_app.tools.before_agent}]
                sub_agents:
                  - config_path: team/sequence.yaml
                  - code: cfg_app.tools.helper
            """,
            "tool_agent.yaml": """
                name: tool_agent
                model_code: {name: .tools.custom_model}
                instruction: answer
                output_schema: {name: cfg_app.tools.Answer}
            """,
            "team/sequence.yaml": """
                agent_class: SequentialAgent
                name: sequence
                sub_agents:
                  - config_path: fan.yaml
                  - config_path: loop.yaml
            """,
            "team/fan.yaml": """
                agent_class: google.adk.agents.ParallelAgent
                name: fan
                sub_agents: [{config_path: leaf.yaml}]
            """,
            "team/loop.yaml": """
                agent_class: LoopAgent
                name: loop
                max_iterations: 3
                sub_agents: [{config_path: leaf2.yaml}]
            """,
            "team/leaf.yaml": "name: leaf\ninstruction: inherit the root's model\n",
            "team/leaf2.yaml": "name: leaf2\ninstruction: x\ninclude_contents: none\n",
        },
    )
    reference, ours = both(folder)
    assert ours == reference
    assert ours["sub_agents"][0]["sub_agents"][0]["sub_agents"][0]["canonical_model"] == (
        "gemini-2.5-flash"
    )  # inherited through Sequential and Parallel agents
    assert [t[0] for t in ours["tools"]] == [
        "function", "function", "FunctionTool", "AgentTool", "FunctionTool", "ExampleTool",
    ]  # fmt: skip


def test_an_agent_without_any_model_gets_the_default_model(tmp_path: Path) -> None:
    folder = make_app(tmp_path, {"root_agent.yaml": "name: solo\ninstruction: x\n"})
    reference, ours = both(folder)
    assert ours == reference
    assert ours["canonical_model"] == "gemini-3.5-flash"


BAD_CONFIGS: dict[str, dict[str, str]] = {
    "unknown_field": {"root_agent.yaml": "name: a\ninstruction: x\nmodle: gemini-2.5-flash\n"},
    "missing_instruction": {"root_agent.yaml": "name: a\n"},
    "wrong_type": {"root_agent.yaml": "name: a\ninstruction: x\ninclude_contents: all\n"},
    "tool_as_string": {"root_agent.yaml": "name: a\ninstruction: x\ntools: [exit_loop]\n"},
    "model_and_model_code": {
        "root_agent.yaml": "name: a\ninstruction: x\nmodel: m\nmodel_code: {name: p.m}\n"
    },
    "unknown_key_in_loop": {"root_agent.yaml": "agent_class: LoopAgent\nname: l\nmodel: m\n"},
    "missing_sub_agent_file": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{config_path: gone.yaml}]\n"
    },
    "sub_agent_both_refs": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{config_path: b.yaml, code: p.b}]\n"
    },
    "sub_agent_outside_folder": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{config_path: ../b.yaml}]\n"
    },
    "sub_agent_absolute": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{config_path: /tmp/b.yaml}]\n"
    },
    "bad_nested_file": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{config_path: b.yaml}]\n",
        "b.yaml": "name: b\ninstruction: x\ntemprature: 2\n",
    },
    "callback_module_missing": {
        "root_agent.yaml": "name: a\ninstruction: x\nbefore_model_callbacks: [{name: cfg_app.nope.cb}]\n"
    },
    "callback_name_missing": {
        "__init__.py": "",
        "tools.py": TOOLS_PY,
        "root_agent.yaml": "name: a\ninstruction: x\nafter_model_callbacks: [{name: cfg_app.tools.nope}]\n",
    },
    "callback_module_broken": {
        "__init__.py": "",
        "broken.py": "import not_installed_anywhere\n",
        "root_agent.yaml": "name: a\ninstruction: x\nbefore_model_callbacks: [{name: cfg_app.broken.cb}]\n",
    },
    "callback_stdlib": {
        "root_agent.yaml": "name: a\ninstruction: x\nbefore_model_callbacks: [{name: os.system}]\n"
    },
    "code_sub_agent_missing_module": {
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{code: cfg_app.nowhere.agent}]\n"
    },
    "code_sub_agent_not_an_agent": {
        "__init__.py": "",
        "tools.py": TOOLS_PY,
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{code: cfg_app.tools.not_an_agent}]\n",
    },
    "code_sub_agent_a_function": {
        "__init__.py": "",
        "tools.py": TOOLS_PY,
        "root_agent.yaml": "name: a\ninstruction: x\nsub_agents: [{code: cfg_app.tools.lookup}]\n",
    },
    "unknown_builtin_tool": {
        "root_agent.yaml": "name: a\ninstruction: x\ntools: [{name: no_such_tool}]\n"
    },
    "tool_module_missing": {
        "root_agent.yaml": "name: a\ninstruction: x\ntools: [{name: cfg_app.nope.tool}]\n"
    },
    "example_provider_not_a_provider": {
        "__init__.py": "",
        "tools.py": TOOLS_PY,
        "root_agent.yaml": "name: a\ninstruction: x\ntools: [{name: ExampleTool, args: {examples: cfg_app.tools.not_an_agent}}]\n",
    },
    "unknown_agent_class": {"root_agent.yaml": "agent_class: NoSuchAgent\nname: a\n"},
    "empty_file": {"root_agent.yaml": "# nothing\n"},
    "not_a_mapping": {"root_agent.yaml": "- name: a\n"},
    "bad_model_code": {
        "root_agent.yaml": "name: a\ninstruction: x\nmodel_code: {name: cfg_app.nope.model}\n"
    },
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_a_bad_config_raises_what_google_adk_raises(tmp_path: Path, case: str) -> None:
    folder = make_app(tmp_path, BAD_CONFIGS[case])
    reference, ours = both(folder)
    assert reference[0] == "raised", reference
    assert ours == reference


def worker_line(tmp_path: Path, files: dict[str, str], monkeypatch: Any) -> str:
    monkeypatch.chdir(tmp_path)
    make_app(tmp_path, files)
    for name in [n for n in sys.modules if n.split(".")[0] == "cfg_app"]:
        monkeypatch.delitem(sys.modules, name)  # an earlier test's app of the same name
    with pytest.raises(AppLoadError) as raised:
        load_app("cfg_app")
    message = str(raised.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("case", "line"),
    [
        (
            "unknown_field",
            "bad agent config cfg_app/root_agent.yaml: modle: Extra inputs are not permitted"
            " (LlmAgentConfig)",
        ),
        (
            "missing_sub_agent_file",
            "bad agent config cfg_app/root_agent.yaml: sub_agents[0]: FileNotFoundError: Config"
            " file not found: {tmp}/cfg_app/gone.yaml",
        ),
        (
            "bad_nested_file",
            "bad agent config cfg_app/b.yaml: temprature: Extra inputs are not permitted"
            " (LlmAgentConfig)",
        ),
        (
            "callback_module_missing",
            "bad agent config cfg_app/root_agent.yaml: before_model_callbacks[0]: ValueError:"
            " Invalid fully qualified name: cfg_app.nope.cb (ModuleNotFoundError: No module"
            " named 'cfg_app.nope')",
        ),
        (
            "callback_module_broken",
            "bad agent config cfg_app/root_agent.yaml: before_model_callbacks[0]:"
            " ModuleNotFoundError: No module named 'not_installed_anywhere'",
        ),
        (
            "code_sub_agent_missing_module",
            "bad agent config cfg_app/root_agent.yaml: sub_agents[0]: ModuleNotFoundError: No"
            " module named 'cfg_app.nowhere'",
        ),
        (
            "unknown_builtin_tool",
            "bad agent config cfg_app/root_agent.yaml: tools[0]: AttributeError: module"
            " 'adk.tools' has no attribute 'no_such_tool'",
        ),
        (
            "unknown_agent_class",
            "bad agent config cfg_app/root_agent.yaml: agent_class: ValueError: Invalid fully"
            " qualified name: NoSuchAgent (ValueError: not enough values to unpack (expected 2,"
            " got 1))",
        ),
        (
            "empty_file",
            "bad agent config cfg_app/root_agent.yaml: ValueError: Invalid agent config in"
            " '{tmp}/cfg_app/root_agent.yaml'. File is empty.",
        ),
    ],
)
def test_the_worker_names_the_file_the_key_and_the_reason_in_one_line(
    tmp_path: Path, monkeypatch: Any, case: str, line: str
) -> None:
    assert worker_line(tmp_path, BAD_CONFIGS[case], monkeypatch) == line.format(
        tmp=tmp_path.resolve()
    )


def test_a_yaml_syntax_error_is_one_line_too(tmp_path: Path, monkeypatch: Any) -> None:
    line = worker_line(tmp_path, {"root_agent.yaml": "name: a\ninstruction: [x\n"}, monkeypatch)
    assert line.startswith("bad agent config cfg_app/root_agent.yaml: ParserError: while parsing")
    assert "line 3, column 1" in line


def test_agent_py_wins_over_root_agent_yaml(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    make_app(
        tmp_path,
        {
            "agent.py": "from adk import Agent\nroot_agent = Agent(name='from_py')\n",
            "root_agent.yaml": "name: from_yaml\ninstruction: x\n",
        },
        name="both_app",
    )
    assert load_app("both_app").root_agent.name == "from_py"


def test_a_folder_with_neither_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty_app").mkdir()
    with pytest.raises(
        AppLoadError, match="needs agent.py defining `root_agent`, or root_agent.yaml"
    ):
        load_app(str(tmp_path / "empty_app"))


def test_set_default_model_sets_the_model_of_agents_without_one(tmp_path: Path) -> None:
    from adk.agents import LlmAgent
    from adk.models.google_llm import Gemini

    folder = make_app(tmp_path, {"root_agent.yaml": "name: solo\ninstruction: x\n"})
    agent = load_side(folder, kit.OURS)
    try:
        LlmAgent.set_default_model("gemini-2.0-flash")
        assert agent.model_name == agent.canonical_model.model == "gemini-2.0-flash"
        LlmAgent.set_default_model(Gemini(model="gemini-1.5-pro"))
        assert agent.model_name == "gemini-1.5-pro"
        with pytest.raises(ValueError, match="Default model must be a non-empty string."):
            LlmAgent.set_default_model("")
        with pytest.raises(TypeError, match="got int"):
            LlmAgent.set_default_model(3)  # type: ignore[arg-type]
    finally:
        LlmAgent.set_default_model(LlmAgent.DEFAULT_MODEL)
    assert agent.model_name == "gemini-3.5-flash"
