"""Agent trees by digest: child workflows get a reference to the tree, not the tree.

Runs on: both sides (the workflows read it, passed through the sandbox; the worker
fills it when it starts). Every child workflow of an invocation used to carry the
whole agent tree in its input (5.7 KB per child in examples/research_pipeline:
a third of the invocation's history). The tree a worker builds from an app is a
function of the app's code, so a digest of its JSON names it: the root workflow
records the tree once (the begin activity's result) and passes its digest to its
children, and a child finds the tree in its worker's copy. A worker knows the
trees of the apps it serves (`remember` at start, and each tree a root workflow
of this process recorded). A child on a worker that runs other code than the one
that began the invocation does not find it: its workflow task fails, saying so,
and is retried until a worker with that code takes it.
"""

from __future__ import annotations

import hashlib
import threading

# The trees as JSON: in the strict sandbox this module is passed through (one
# instance for the process, worker/_build.py's PASSTHROUGH) while the workflows'
# own modules are imported again for each run, so each run validates the JSON with
# its own AgentSpec class.
_TREES: dict[str, str] = {}
_DIGEST = 16
"""Hex digits of a tree's digest (64 bits: the trees one worker serves). A child's input
names its tree by it, recorded twice per child."""
_LOCK = threading.Lock()


def remember(tree_json: str) -> str:
    """Keep the tree (its JSON, if new); its digest."""
    key = hashlib.sha256(tree_json.encode()).hexdigest()[:_DIGEST]
    with _LOCK:
        _TREES.setdefault(key, tree_json)
    return key


def recall(key: str, agent: str) -> str:
    """The JSON of the tree of that digest; a RuntimeError (the workflow task fails and
    is retried) when this worker does not know it."""
    with _LOCK:
        tree = _TREES.get(key[:_DIGEST])  # (histories from before name it by 32 digits)
    if tree is None:
        raise RuntimeError(
            f"Agent tree {key} (the run of agent {agent}) is not one this worker serves: it"
            " runs other code of the app than the worker that began the invocation. A worker"
            " with the same app code will take this task; deploy it, or drain the"
            " invocations of the previous version first."
        )
    return tree
