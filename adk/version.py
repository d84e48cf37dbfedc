"""The google-adk version whose API and behaviour durable-adk's `adk` package
implements (google.adk.version). durable-adk's own version is the package's
(`importlib.metadata.version("durable-adk")`).

Runs on: any side (a constant).
"""

from ._reference_surface import VERSION

__version__ = VERSION
