"""Model names: the name in a path, and what kind of Gemini model it is.

Runs on: activity and process side (pure, but for the environment switch
`is_gemini_model_id_check_disabled` reads). Mirrors google-adk 2.13's
`google.adk.utils.model_name_utils`; a Gemini version is read as PEP 440 reads
it (2.13 uses `packaging`, which durable-adk does not depend on).
"""

from __future__ import annotations

import re

from typing_extensions import deprecated

from .env_utils import is_env_enabled

__all__ = [
    "extract_model_name",
    "is_gemini_1_model",
    "is_gemini_3_5_live_translate",
    "is_gemini_eap_or_2_or_above",
    "is_gemini_model",
    "is_gemini_model_id_check_disabled",
]

_DISABLE_GEMINI_MODEL_ID_CHECK_ENV_VAR = "ADK_DISABLE_GEMINI_MODEL_ID_CHECK"

_PATH_MODEL_NAMES = (
    re.compile(r"^projects/[^/]+/locations/[^/]+/publishers/[^/]+/models/(.+)$"),  # Vertex AI
    re.compile(r"^apigee/(?:[^/]+/)?(?:[^/]+/)?(.+)$"),  # Apigee
)

_VERSION = re.compile(
    r"""
    \s*v?
    (?:[0-9]+!)?                                   # epoch
    (?P<major>[0-9]+)(?:\.[0-9]+)*                 # release
    (?:[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?[0-9]*)?       # pre-release
    (?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?  # post-release
    (?:[-_.]?dev[-_.]?[0-9]*)?                     # development release
    (?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?            # local version
    \s*
    """,
    re.VERBOSE | re.IGNORECASE,
)
"""A PEP 440 version (what `packaging.version.Version` accepts)."""

_EAP = re.compile(r"^gemini-(?:[a-z0-9_]+(?:-[a-z0-9_]+)*-)?early-exp\d*$")


def is_gemini_model_id_check_disabled() -> bool:
    """Whether Gemini model-id validation is bypassed ($ADK_DISABLE_GEMINI_MODEL_ID_CHECK,
    for model ids that do not follow the public `gemini-*` naming)."""
    return is_env_enabled(_DISABLE_GEMINI_MODEL_ID_CHECK_ENV_VAR)


def extract_model_name(model_string: str) -> str:
    """The model's name in a path (`projects/.../models/NAME`, `apigee/.../NAME`),
    `models/NAME` or a provider-prefixed Gemini name (`gemini/NAME`); else as given."""
    for pattern in _PATH_MODEL_NAMES:
        if match := pattern.match(model_string):
            return match.group(1)
    if model_string.startswith("models/"):
        return model_string[len("models/") :]
    if model_string.startswith("projects/"):  # a malformed Vertex AI path: as given
        return model_string
    if "/" in model_string:
        name = model_string.rsplit("/", 1)[1]
        if name.startswith("gemini-"):
            return name
    return model_string


def is_gemini_model(model_string: str | None) -> bool:
    """Whether the model (a name or a path) is a Gemini model."""
    if not model_string:
        return False
    return extract_model_name(model_string).startswith("gemini-")


@deprecated(
    "ADK no longer distinguishes Gemini versions internally, because Gemini"
    " 1.x is fully deprecated. Use is_gemini_model instead."
)
def is_gemini_1_model(model_string: str | None) -> bool:
    """Whether the model (a name or a path) is a Gemini 1.x model."""
    if not model_string:
        return False
    return re.match(r"^gemini-1\.\d+", extract_model_name(model_string)) is not None


def _gemini_major(model_string: str) -> int | None:
    """The major version of a `gemini-<version>-...` model, if it has a PEP 440 one."""
    name = extract_model_name(model_string)
    if not name.startswith("gemini-"):
        return None
    version = name[len("gemini-") :].split("-", 1)[0]
    match = _VERSION.fullmatch(version)
    return int(match.group("major")) if match else None


@deprecated(
    "ADK no longer distinguishes Gemini versions internally, because Gemini"
    " 1.x is fully deprecated. Use is_gemini_model instead."
)
def is_gemini_eap_or_2_or_above(model_string: str | None) -> bool:
    """Whether the model is an Early Access Program Gemini model or Gemini 2.0+."""
    if not model_string:
        return False
    if _is_gemini_eap_model(model_string):
        return True
    major = _gemini_major(model_string)
    return major is not None and major >= 2


def _is_gemini_eap_model(model_string: str | None) -> bool:
    """Whether the model is an EAP Gemini model: `gemini-[<variant>-]early-exp[N]`."""
    if not model_string:
        return False
    return _EAP.match(extract_model_name(model_string)) is not None


def _supports_builtin_tools_with_function_calling(model_string: str | None) -> bool:
    """Whether the model takes built-in tools beside function declarations (Gemini 3+)."""
    if not model_string:
        return False
    major = _gemini_major(model_string)
    return major is not None and major >= 3


def _is_gemini_3_x_live(model_string: str | None) -> bool:
    """Whether the model is a Gemini 3.x Live model (not Live Translate)."""
    if not model_string:
        return False
    name = extract_model_name(model_string)
    return (
        name.startswith("gemini-3.")
        and "-live" in name
        and not is_gemini_3_5_live_translate(model_string)
    )


def is_gemini_3_5_live_translate(model_string: str | None) -> bool:
    """Whether the model is a Gemini 3.5 Live Translate model."""
    if not model_string:
        return False
    return extract_model_name(model_string).startswith("gemini-3.5-live-translate")
