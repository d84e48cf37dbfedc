"""Whose code a request reaches: durable-adk's own does not change contents in place.

Runs on: activity side (request building, the model step). A request's contents
are shared (flows/llm_flows/_contents_memo.py) until code that may change them in
place sees them: then `LlmRequest._own_contents` copies them first.
"""

from __future__ import annotations


def is_ours(function: object) -> bool:
    """Whether `function` is durable-adk's own (it does not change contents in place)."""
    return (getattr(function, "__module__", None) or "").startswith("adk.")
