"""Code runner app: the model writes a program that runs for two seconds
(UnsafeLocalCodeExecutor), then answers with its output.

Used by tests/workflows/test_code_execution.py, which SIGKILLs the worker while the
program runs. The program appends `start` and `end` lines to
the file named by $CODE_RUNNER_LOG, so the test sees how often it started and ended.
"""

from __future__ import annotations

import os

from adk import Agent
from adk.code_executors import UnsafeLocalCodeExecutor
from adk.testing import MockModel

_LOG = os.environ.get("CODE_RUNNER_LOG", os.devnull)
CODE = f"""import time
with open({_LOG!r}, "a") as log:
    log.write("start\\n")
time.sleep(2)
with open({_LOG!r}, "a") as log:
    log.write("end\\n")
print(6 * 7)"""

root_agent = Agent(
    name="code_runner",
    model=MockModel.create([f"Running it.\n```python\n{CODE}\n```", "The answer is 42."]),
    code_executor=UnsafeLocalCodeExecutor(timeout_seconds=30),
)
