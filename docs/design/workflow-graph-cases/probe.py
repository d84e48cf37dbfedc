"""Runs one case of this folder on google-adk 2.13 (the differential kit's reference side) and
prints its events compactly. From the repository root:

    .venv/bin/python docs/design/workflow-graph-cases/probe.py tests/differential/cases/wf_linear.py

(needs `make .venv/bin/.reference`). The cases are written as differential cases (build, TURNS):
move one to tests/differential/cases/ when its slice lands.
"""

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.differential import kit

src = open(sys.argv[1]).read()
doc = asyncio.run(kit.run_reference(src))


def summ(e):
    if "same_as_yielded" in e:
        return "same_as_yielded"
    a = e.get("actions", {})
    parts = []
    parts.append(f"author={e.get('author')}")
    if e.get("branch"):
        parts.append(f"branch={e['branch']}")
    ni = e.get("node_info", {})
    if ni.get("path"):
        parts.append(f"path={ni['path']}")
    if ni.get("output_for"):
        parts.append(f"output_for={ni['output_for']}")
    for k in ("message_as_output",):
        if ni.get(k):
            parts.append(f"{k}={ni[k]}")
    extra = {k: v for k, v in ni.items() if k not in ("path", "output_for", "message_as_output")}
    if extra:
        parts.append(f"node_info+={extra}")
    if "output" in e:
        parts.append(f"output={json.dumps(e['output'])}")
    c = e.get("content")
    if c:
        ps = []
        for p in c.get("parts", []):
            if "text" in p:
                ps.append(f"text:{p['text']!r}")
            elif "function_call" in p:
                fc = p["function_call"]
                ps.append(f"fc:{fc.get('name')}({json.dumps(fc.get('args'))}) id={fc.get('id')}")
            elif "function_response" in p:
                fr = p["function_response"]
                ps.append(f"fr:{fr.get('name')}={json.dumps(fr.get('response'))} id={fr.get('id')}")
            else:
                ps.append(str(p)[:80])
        parts.append(f"content[{c.get('role')}]=" + "; ".join(ps))
    for k, v in a.items():
        if v in ({}, None, [], False):
            continue
        parts.append(f"{k}={json.dumps(v)}")
    for k in (
        "long_running_tool_ids",
        "error_code",
        "error_message",
        "interrupted",
        "turn_complete",
        "partial",
        "isolation_scope",
    ):
        if e.get(k) not in (None, [], False):
            parts.append(f"{k}={e[k]}")
    other = set(e) - {
        "invocation_id",
        "author",
        "actions",
        "node_info",
        "id",
        "content",
        "output",
        "branch",
        "timestamp",
        "long_running_tool_ids",
        "error_code",
        "error_message",
        "interrupted",
        "turn_complete",
        "partial",
        "isolation_scope",
    }
    if other:
        parts.append(f"other={ {k: e[k] for k in other} }")
    return "  ".join(parts)


for i, t in enumerate(doc["turns"]):
    print(
        f"== turn {i}: {json.dumps(t.get('message'))[:200]}  inv={set(e.get('invocation_id', '')[:10] for e in t.get('events', []))}"
    )
    for j, e in enumerate(t.get("events", [])):
        print(f" {j}. {summ(e)}")
    if "error" in t or "exception" in t:
        print(" RAISED", t.get("error") or t.get("exception"))
    ks = set(t) - {"message", "events"}
    if ks:
        print(" turn keys", {k: t[k] for k in ks})
s = doc["session"]
print("== session state", json.dumps(s.get("state")))
n = [e for e in s["events"] if "same_as_yielded" not in e]
print(
    "   session events",
    len(s["events"]),
    "not-yielded:",
    [summ(e) for e in n if e.get("author") != "user"],
)
if doc.get("requests"):
    for m, rs in doc["requests"].items():
        print("== model", m, "requests", len(rs))
        for r in rs:
            print(
                "   contents:",
                [
                    (
                        c.get("role"),
                        [(p.get("text") or str(list(p.keys())))[:60] for p in c.get("parts", [])],
                    )
                    for c in r.get("contents", [])
                ],
            )
