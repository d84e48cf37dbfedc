"""google-adk 2.13's deprecation warnings of the workflow agents, against 2.13's own.

Runs on: test process only (pure; both sides in-process).

2.13 marks SequentialAgent, ParallelAgent and LoopAgent (and the Agent Config
classes, BaseAgent.from_config and _parse_config) with typing_extensions'
`deprecated`. Each scenario runs on both sides, every warning recorded: the
same category, text and attributed file, at the same moments.
"""

from __future__ import annotations

import copy
import pickle
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("google.adk")

import google.adk.agents as ref_agents  # noqa: E402

import adk.agents as our_agents  # noqa: E402

WORKFLOW_AGENTS = ["SequentialAgent", "ParallelAgent", "LoopAgent"]


def _subclass(m: ModuleType, name: str) -> type:
    return type(f"My{name}", (getattr(m, name),), {"__module__": __name__})


# scenario -> what it does with a side's agents module and a workflow agent class name
SCENARIOS: dict[str, Callable[[ModuleType, str], Any]] = {
    "construct": lambda m, n: getattr(m, n)(name="a"),
    "construct_with_sub_agents": lambda m, n: getattr(m, n)(
        name="a", sub_agents=[m.LlmAgent(name="b")]
    ),
    "model_validate": lambda m, n: getattr(m, n).model_validate({"name": "a"}),
    "subclass_definition": _subclass,
    "subclass_construction": lambda m, n: _quietly(lambda: _subclass(m, n))(name="a"),
    "subclass_of_subclass_definition": lambda m, n: type(
        "Deeper", (_quietly(lambda: _subclass(m, n)),), {"__module__": __name__}
    ),
    "model_copy": lambda m, n: _quietly(lambda: getattr(m, n)(name="a")).model_copy(),
    "clone": lambda m, n: _quietly(lambda: getattr(m, n)(name="a")).clone(),
    "deepcopy": lambda m, n: copy.deepcopy(_quietly(lambda: getattr(m, n)(name="a"))),
    "pickle": lambda m, n: pickle.loads(pickle.dumps(_quietly(lambda: getattr(m, n)(name="a")))),
    "isinstance": lambda m, n: isinstance(m.LlmAgent(name="a"), getattr(m, n)),
}


def _quietly(make: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return make()


def _warned(side: ModuleType, scenario: str, name: str) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            SCENARIOS[scenario](side, name)
            outcome: Any = "ok"
        except Exception as error:
            outcome = [type(error).__name__, str(error)]
    return outcome, [
        (w.category.__name__, str(w.message), w.filename.rsplit("/", 1)[-1]) for w in caught
    ]


@pytest.mark.parametrize("name", WORKFLOW_AGENTS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_same_warnings_at_the_same_moments(scenario: str, name: str) -> None:
    assert _warned(our_agents, scenario, name) == _warned(ref_agents, scenario, name)


@pytest.mark.parametrize("name", WORKFLOW_AGENTS)
def test_constructing_one_warns_with_2_13_text(name: str) -> None:
    with pytest.warns(DeprecationWarning) as caught:
        getattr(our_agents, name)(name="a")
    assert [str(w.message) for w in caught] == [
        f"{name} is deprecated in favor of Workflow and will be removed in a future"
        " version. Workflow cannot yet be used as an LlmAgent sub-agent."
    ]
    assert getattr(our_agents, name).__deprecated__ == getattr(ref_agents, name).__deprecated__


CONFIGS = ["SequentialAgentConfig", "ParallelAgentConfig", "LoopAgentConfig", "LlmAgentConfig"]


@pytest.mark.parametrize("name", CONFIGS)
def test_config_classes_warn_as_2_13(name: str) -> None:
    def build(m: ModuleType) -> Any:
        extra = {"instruction": "x"} if name == "LlmAgentConfig" else {}
        return _warned_call(lambda: getattr(m, name)(name="a", **extra))

    assert build(our_agents) == build(ref_agents)


def _warned_call(make: Callable[[], Any]) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    return [(w.category.__name__, str(w.message)) for w in caught]


_YAML = {
    "root_agent.yaml": "agent_class: SequentialAgent\nname: pipeline\nsub_agents:\n"
    "  - config_path: fan.yaml\n  - config_path: loop.yaml\n",
    "fan.yaml": "agent_class: ParallelAgent\nname: fan\nsub_agents:\n  - config_path: step.yaml\n",
    "loop.yaml": "agent_class: LoopAgent\nname: again\nmax_iterations: 2\nsub_agents:\n"
    "  - config_path: other.yaml\n",
    "step.yaml": "name: step\nmodel: gemini-2.5-flash\ninstruction: Do it.\n",
    "other.yaml": "agent_class: LlmAgent\nname: other\ninstruction: Again.\n",
}


def test_loading_a_yaml_app_warns_as_2_13(tmp_path: Any) -> None:
    for name, text in _YAML.items():
        (tmp_path / name).write_text(text)

    def load(m: ModuleType) -> Any:
        utils = __import__(f"{m.__name__}.config_agent_utils", fromlist=["from_config"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            utils.from_config(str(tmp_path / "root_agent.yaml"))
        return [
            (w.category.__name__, str(w.message), w.filename.rsplit("/", 1)[-1]) for w in caught
        ]

    warned = load(our_agents)
    assert warned == load(ref_agents)
    assert len(warned) == 8  # 5 config classes validated, 3 workflow agents built
