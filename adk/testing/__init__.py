"""Testing kit: a scripted model, a fake Gemini server, an in-process runner.

Runs on: test process / worker process.
"""

from .mock_model import MockModel, ScriptExhaustedError

__all__ = ["MockModel", "ScriptExhaustedError"]
