"""durable-adk: Google ADK's API, every invocation a durable Temporal workflow.

Import as you would `google.adk`: `from adk import Agent, Runner`,
`from adk.tools import ToolContext`, ...

Runs on: process side (the package API); its modules say where each runs.
"""

from .activity_options import ActivityOptions
from .agents import Agent, LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from .runners import Runner

__all__ = [
    "ActivityOptions",
    "Agent",
    "LlmAgent",
    "LoopAgent",
    "ParallelAgent",
    "Runner",
    "SequentialAgent",
]
