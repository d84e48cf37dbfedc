"""Sorts one sample's two probe results (google-adk 2.13, ours) into a class.

Runs on: process side (the sweep). Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_NAMED = re.compile(r"^([\w.]+(?:\([^)]*\))?)[ :]")


class Outcome:
    OK = "ok"
    STALE = "fails-on-2.13-too"  # the sample does not import on google-adk 2.13 either
    THIRD_PARTY = "needs-third-party"  # a package neither venv has (litellm, anthropic, ...)
    NOT_IMPLEMENTED = "not-implemented"  # ours raises NotImplementedError naming the gap
    BUG = "error-ours"  # any other exception of ours: a bug or a missing piece
    MODEL = "model-unresolved"  # imports, but an agent's model resolves on 2.13 only
    WORKER = "worker-refuses"  # imports, but a worker refuses to load the app


@dataclass
class Result:
    kind: str
    detail: str
    request: str = ""


def _is_ours(name: str | None) -> bool:
    return bool(name) and (name == "adk" or str(name).startswith(("adk.", "google.adk")))


def _describe(result: dict[str, Any]) -> str:
    message = result.get("message", "").strip().splitlines()
    first = message[0] if message else ""
    return f"{result.get('type')}: {first}"[:200]


def _missing_package(result: dict[str, Any]) -> str | None:
    """The third-party package an ImportError names (`No module named 'x'`, `cannot
    import name 'bigquery' from 'google.cloud'`, `... requires: pip install ...`)."""
    if "ImportError" not in result.get("mro", []) or "NotImplementedError" in result["mro"]:
        return None
    name = result.get("module_name")
    if not name:
        message = result.get("message", "")
        return message[:80] if "pip install" in message else None
    if _is_ours(name):
        return None
    return str(name).split(".")[0] if not str(name).startswith("google.") else str(name)


def missing_feature(ours: dict[str, Any]) -> str | None:
    """What ours' NotImplementedError names (`adk.models.lite_llm`), if it raised one."""
    if ours.get("status") == "ok":
        ours = ours.get("worker") or {}
    if "NotImplementedError" not in ours.get("mro", []):
        return None
    match = _NAMED.search(ours.get("message", ""))
    return match.group(1) if match else _describe(ours)


def classify(ref: dict[str, Any], ours: dict[str, Any]) -> Result:
    if ours["status"] == "ok":
        if ref["status"] != "ok":
            return Result(Outcome.OK, f"(2.13 fails: {_describe(ref)})")
        unresolved = _unresolved_models(ref, ours)
        if unresolved:
            return Result(Outcome.MODEL, unresolved)
        worker = ours.get("worker") or {"status": "ok"}
        if worker["status"] != "ok":
            return Result(Outcome.WORKER, _describe(worker))
        return Result(Outcome.OK, ours.get("agent_class", ""), _compare(ref, ours))
    # both sides share one venv: what 2.13 lacks to import the sample, we lack too
    if ref["status"] != "ok":
        missing = _missing_package(ref)
        if missing:
            return Result(Outcome.THIRD_PARTY, missing)
        return Result(Outcome.STALE, _describe(ref))
    if "NotImplementedError" in ours.get("mro", []):
        return Result(Outcome.NOT_IMPLEMENTED, missing_feature(ours) or _describe(ours))
    return Result(Outcome.BUG, _describe(ours))


def _unresolved_models(ref: dict[str, Any], ours: dict[str, Any]) -> str:
    """The models 2.13 resolves and ours does not, with ours' error."""
    found = []
    for name, model in (ours.get("models") or {}).items():
        ref_model = (ref.get("models") or {}).get(name, {})
        if "error" in model and "error" not in ref_model:
            found.append(f"{ref_model.get('class')}: {_describe(model['error'])}")
    return "; ".join(sorted(set(found)))


def _compare(ref: dict[str, Any], ours: dict[str, Any]) -> str:
    ref_request, our_request = ref.get("request"), ours.get("request")
    if ref_request is None and our_request is None:
        return ""  # not an LlmAgent root
    if not isinstance(ref_request, dict) or not isinstance(our_request, dict):
        return "missing on one side"
    if "skipped" in ref_request or "skipped" in our_request:
        return f"skipped ({(ref_request | our_request).get('skipped')})"
    if ref_request.get("status") == "error" or our_request.get("status") == "error":
        if ref_request.get("status") == "error" and our_request.get("status") == "error":
            return f"both fail ({ref_request.get('type')})"
        failing = ref_request if ref_request.get("status") == "error" else our_request
        side = "2.13" if failing is ref_request else "ours"
        return f"{side} fails: {_describe(failing)}"
    same = json.dumps(ref_request, sort_keys=True) == json.dumps(our_request, sort_keys=True)
    if same:
        return "same"
    keys = [k for k in ("model", "contents", "config") if ref_request.get(k) != our_request.get(k)]
    if "config" in keys:
        ref_config, our_config = ref_request["config"], our_request["config"]
        fields = sorted(
            k for k in set(ref_config) | set(our_config) if ref_config.get(k) != our_config.get(k)
        )
        keys[keys.index("config")] = f"config.{'/'.join(fields)}"
    return "differs: " + ", ".join(keys)
