"""Activities: everything that touches the outside world (store, models, tools, user code).

Runs on: activity side (worker process).
"""

from ._activities import AdkActivities
from ._memory import MemoryScope
from ._spec import build_spec

__all__ = ["AdkActivities", "MemoryScope", "build_spec"]
