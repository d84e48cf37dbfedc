"""Sweep google-adk's sample agents over durable-adk: which import, which break and why.

Runs on: process side (a program, not a test: it needs the samples' sources,
and takes a minute or two). For every sample package under the given roots (a
directory with an agent.py that defines `root_agent` or `app`), it copies the
sample's project, rewrites `google.adk` to `adk`, and imports it in a child
process with the network cut off; the unchanged sample is imported on
google-adk 2.13 the same way, so a sample that is stale for 2.13 or needs a
package we lack is told apart from a gap of ours. Where both sides import an
LlmAgent on a Gemini model, it also builds the first model request for "Hello"
on both and compares them.

    python -m bench.samples_sweep ROOT [ROOT ...] [--json out.json] [--only NAME]

A ROOT is a directory of samples (e.g. adk-python's contributing/samples, or
adk-samples' python/agents), or `GIT_DIR:PATH` to take PATH from a bare git
repository's HEAD. Prints one line per sample and a summary by class.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._classify import Outcome, classify, missing_feature

_DEFINES_AGENT = re.compile(r"^(root_agent|app)\s*(:[^=]+)?=", re.MULTILINE)
_PROBE = Path(__file__).with_name("_probe.py")
_TIMEOUT = 120


def _materialize(root: str, into: Path) -> Path:
    if ":" not in root or Path(root).exists():
        return Path(root)
    git_dir, path = root.split(":", 1)
    target = into / "git"
    listing = subprocess.run(
        ["git", "-C", git_dir, "ls-tree", "-r", "HEAD", path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for line in listing.splitlines():
        meta, name = line.split("\t", 1)
        _mode, kind, sha = meta.split()
        blob = subprocess.run(["git", "-C", git_dir, "cat-file", "blob", sha], capture_output=True)
        if kind != "blob" or blob.returncode:  # a snapshot lacks its largest files
            continue
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes(blob.stdout)
    return target / path


def _samples(root: Path) -> list[Path]:
    found = []
    for agent_py in sorted(root.rglob("agent.py")):
        if _DEFINES_AGENT.search(agent_py.read_text(errors="replace")):
            found.append(agent_py.parent)
    # a sample inside another sample's tree (a sub-agent package) is part of that sample
    return [s for s in found if not any(o != s and o in s.parents for o in found)]


def _copy(project: Path, into: Path, rewrite: bool) -> Path:
    target = into / project.name
    shutil.copytree(project, target, ignore=shutil.ignore_patterns(".git", "__pycache__"))
    if rewrite:
        for py in target.rglob("*.py"):
            text = py.read_text(errors="replace")
            if "google.adk" in text:
                py.write_text(text.replace("google.adk", "adk"))
    return target


def _probe(side: str, project_dir: Path, package: str) -> dict[str, Any]:
    # an empty PATH: a sample's stdio MCP server (`npx -y ...`) cannot start and fetch
    # packages; the probe cuts its own sockets
    env = {**os.environ, "PATH": str(project_dir.parent / "no-programs")}
    try:
        done = subprocess.run(
            [sys.executable, str(_PROBE), side, str(project_dir), package],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            cwd=project_dir,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"status": "error", "stage": "import", "type": "Timeout", "message": ""}
    for line in done.stdout.splitlines():
        if line.startswith("SWEEP-RESULT "):
            return dict(json.loads(line[len("SWEEP-RESULT ") :]))
    tail = (done.stderr or done.stdout)[-600:]
    return {"status": "error", "stage": "import", "type": "Crash", "message": tail}


def _run_one(sample: Path, root: Path, work: Path) -> dict[str, Any]:
    # the project is the sample's parent: sibling packages and `from . import` resolve
    project = sample.parent
    package = sample.name
    results = {}
    for side in ("ref", "ours"):
        # the same path on both sides: a sample may put its own path in an instruction
        side_dir = work / "sample"
        copied = _copy(project, side_dir, rewrite=side == "ours")
        results[side] = _probe(side, copied, package)
        shutil.rmtree(side_dir)
    outcome = classify(results["ref"], results["ours"])
    return {
        "sample": str(sample.relative_to(root)),
        "ref": results["ref"],
        "ours": results["ours"],
        "class": outcome.kind,
        "detail": outcome.detail,
        "request": outcome.request,
        "needs": missing_feature(results["ours"]),
    }


def _line(row: dict[str, Any]) -> str:
    request = f" [request: {row['request']}]" if row["request"] else ""
    needs = f" [ours: not implemented {row['needs']}]" if row["needs"] else ""
    return f"{row['class']:<22} {row['sample']}: {row['detail']}{request}{needs}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.samples_sweep")
    parser.add_argument("roots", nargs="+")
    parser.add_argument("--json", help="write every row, with both sides' results, here")
    parser.add_argument("--only", help="only samples whose path contains this")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="samples-sweep-") as tmp:
        for i, root_arg in enumerate(args.roots):
            root = _materialize(root_arg, Path(tmp) / f"root{i}")
            for sample in _samples(root):
                if args.only and args.only not in str(sample):
                    continue
                work = Path(tempfile.mkdtemp(dir=tmp))
                row = _run_one(sample, root, work)
                row["root"] = root_arg
                rows.append(row)
                print(_line(row), flush=True)
    _summary(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str))


def _summary(rows: list[dict[str, Any]]) -> None:
    by_class = collections.Counter(row["class"] for row in rows)
    print(f"\n{len(rows)} samples")
    for kind, count in by_class.most_common():
        print(f"  {kind:<22} {count}")
    details = collections.Counter(
        (row["class"], row["detail"]) for row in rows if row["class"] != Outcome.OK
    )
    print("\nby cause:")
    for (kind, detail), count in details.most_common():
        print(f"  {count:>3}  {kind}: {detail}")
    needs = collections.Counter(row["needs"] for row in rows if row["needs"])
    print("\nnot implemented by ours (whatever else the sample lacks on 2.13):")
    for feature, count in needs.most_common():
        print(f"  {count:>3}  {feature}")
    requests = collections.Counter(row["request"] or "-" for row in rows if row["class"] == "ok")
    print("\nfirst model request (samples importing on both sides):")
    for kind, count in requests.most_common():
        print(f"  {count:>3}  {kind}")


if __name__ == "__main__":
    main()
