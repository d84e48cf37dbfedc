r"""The words a memory is found by: Unicode-aware, with mixed-script words split.

Runs on: activity side (the memory services).

Japanese and Chinese are written without spaces, so `私はPythonを使う` is one
`\w+` token and a search for `Python` would find nothing: a token that mixes
Latin and other scripts also counts each of its single-script runs.
"""

from __future__ import annotations

import itertools
import re
import unicodedata


def is_latin(c: str) -> bool:
    if c.isascii():
        return c.isalnum() or c == "_"
    return unicodedata.name(c, "").startswith("LATIN")


def words_lower(text: str) -> set[str]:
    """The `\\w+` tokens of `text`, NFC-normalized and lowercased."""
    return {word.lower() for word in re.findall(r"\w+", unicodedata.normalize("NFC", text))}


def searchable_words(text: str) -> set[str]:
    """`words_lower`, plus each single-script run of a mixed-script token."""
    words = words_lower(text)
    for word in list(words):
        if not word.isascii():
            words.update("".join(run) for _, run in itertools.groupby(word, is_latin))
    return words


def split_script_runs(text: str) -> str:
    """`text` with each whitespace-separated word split into single-script runs."""
    if text.isascii():
        return text
    chunks: list[str] = []
    for word in text.split():
        if word.isascii():
            chunks.append(word)
        else:
            chunks.extend("".join(run) for _, run in itertools.groupby(word, is_latin))
    return " ".join(chunks)
