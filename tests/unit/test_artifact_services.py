"""The artifact services, operation by operation against google-adk 2.13's: the same
results, the same errors (class and message), the same files on disk.

Runs on: test process only (google-adk is the test-only reference).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pydantic_core
import pytest
from google.genai import types

from adk.artifacts import FileArtifactService, GcsArtifactService, InMemoryArtifactService
from adk.errors.input_validation_error import InputValidationError

from . import fake_gcs

APP, USER, SESSION = "app", "u1", "s1"


def text(value: str) -> types.Part:
    return types.Part.from_text(text=value)


def blob(data: bytes, mime: str = "application/octet-stream", name: str | None = None) -> Any:
    return types.Part(inline_data=types.Blob(data=data, mime_type=mime, display_name=name))


def ref(filename: str, version: int, session: str | None = SESSION, user: str = USER) -> Any:
    where = f"apps/{APP}/users/{user}" + (f"/sessions/{session}" if session else "")
    uri = f"artifact://{where}/artifacts/{filename}/versions/{version}"
    return types.Part(file_data=types.FileData(file_uri=uri, mime_type="text/plain"))


# (method, keyword arguments): run in order on a fresh service of each side
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("save_artifact", {"filename": "a.txt", "artifact": text("one")}),
    ("save_artifact", {"filename": "a.txt", "artifact": text("two"), "custom_metadata": {"k": 1}}),
    ("save_artifact", {"filename": "img.png", "artifact": blob(b"\x89PNG", "image/png", "p.png")}),
    ("save_artifact", {"filename": "raw", "artifact": blob(b"\x00\x01")}),
    ("save_artifact", {"filename": "user:prefs.json", "artifact": text("{}")}),
    ("save_artifact", {"filename": "docs/nested/deep.txt", "artifact": text("deep")}),
    ("save_artifact", {"filename": "docs", "artifact": text("parent")}),
    ("save_artifact", {"filename": "dict.txt", "artifact": {"text": "from a dict"}}),
    (
        "save_artifact",
        {"filename": "camel.bin", "artifact": {"inlineData": {"data": "AAE=", "mimeType": "x/y"}}},
    ),
    ("save_artifact", {"filename": "../escape.txt", "artifact": text("no")}),
    ("save_artifact", {"filename": "/abs.txt", "artifact": text("no")}),
    ("save_artifact", {"filename": "C:evil.txt", "artifact": text("no")}),
    ("save_artifact", {"filename": "x/metadata.json", "artifact": text("no")}),
    ("save_artifact", {"filename": "versions/x.txt", "artifact": text("no")}),
    ("save_artifact", {"filename": "empty", "artifact": types.Part()}),
    ("save_artifact", {"filename": "nosession.txt", "artifact": text("x"), "session_id": None}),
    ("save_artifact", {"filename": "a.txt", "artifact": text("x"), "user_id": "../u"}),
    ("save_artifact", {"filename": "a.txt", "artifact": text("x"), "session_id": "user/x"}),
    ("save_artifact", {"filename": "a.txt", "artifact": text("x"), "app_name": ""}),
    ("load_artifact", {"filename": "a.txt"}),
    ("load_artifact", {"filename": "a.txt", "version": 0}),
    ("load_artifact", {"filename": "a.txt", "version": 7}),
    ("load_artifact", {"filename": "img.png"}),
    ("load_artifact", {"filename": "raw"}),
    ("load_artifact", {"filename": "user:prefs.json"}),
    ("load_artifact", {"filename": "user:prefs.json", "session_id": "other"}),
    ("load_artifact", {"filename": "prefs.json"}),
    ("load_artifact", {"filename": "docs/nested/deep.txt"}),
    ("load_artifact", {"filename": "missing.txt"}),
    ("load_artifact", {"filename": "a.txt", "session_id": "other"}),
    ("list_artifact_keys", {}),
    ("list_artifact_keys", {"session_id": "other"}),
    ("list_artifact_keys", {"session_id": None}),
    ("list_versions", {"filename": "a.txt"}),
    ("list_versions", {"filename": "missing.txt"}),
    ("list_artifact_versions", {"filename": "a.txt"}),
    ("get_artifact_version", {"filename": "a.txt"}),
    ("get_artifact_version", {"filename": "img.png", "version": 0}),
    ("get_artifact_version", {"filename": "a.txt", "version": 9}),
    ("delete_artifact", {"filename": "docs"}),
    ("load_artifact", {"filename": "docs"}),
    ("load_artifact", {"filename": "docs/nested/deep.txt"}),
    ("delete_artifact", {"filename": "missing.txt"}),
    ("list_artifact_keys", {}),
]

# the in-memory service also stores references and file_data (the file service does not)
MEMORY_ONLY: list[tuple[str, dict[str, Any]]] = [
    ("save_artifact", {"filename": "link", "artifact": ref("a.txt", 0)}),
    ("load_artifact", {"filename": "link"}),
    ("save_artifact", {"filename": "link2", "artifact": ref("link", 0)}),
    ("load_artifact", {"filename": "link2"}),
    ("save_artifact", {"filename": "loop", "artifact": ref("loop", 0)}),
    ("load_artifact", {"filename": "loop"}),
    ("save_artifact", {"filename": "theirs", "artifact": ref("a.txt", 0, user="u2")}),
    ("save_artifact", {"filename": "other", "artifact": ref("a.txt", 0, session="s2")}),
    ("save_artifact", {"filename": "bad", "artifact": types.Part(
        file_data=types.FileData(file_uri="artifact://nonsense"))}),
    ("save_artifact", {"filename": "gs", "artifact": types.Part(
        file_data=types.FileData(file_uri="gs://b/o", mime_type="application/pdf"))}),
    ("get_artifact_version", {"filename": "gs"}),
    ("load_artifact", {"filename": "gs"}),
    ("save_artifact", {"filename": "tomb", "artifact": blob(b"")}),
    ("load_artifact", {"filename": "tomb"}),
]  # fmt: skip

# a session rewind's tombstone (an empty application/octet-stream blob) loads as absent
# on every service; it stays listed and versioned; a near miss is an artifact
TOMBSTONES: list[tuple[str, dict[str, Any]]] = [
    ("save_artifact", {"filename": "t.bin", "artifact": blob(b"data")}),
    ("save_artifact", {"filename": "t.bin", "artifact": blob(b"")}),
    ("load_artifact", {"filename": "t.bin"}),
    ("load_artifact", {"filename": "t.bin", "version": 1}),
    ("load_artifact", {"filename": "t.bin", "version": 0}),
    ("list_versions", {"filename": "t.bin"}),
    ("get_artifact_version", {"filename": "t.bin"}),
    ("list_artifact_keys", {}),
    ("save_artifact", {"filename": "t.bin", "artifact": blob(b"", name="named")}),
    ("load_artifact", {"filename": "t.bin"}),
    ("save_artifact", {"filename": "t.bin", "artifact": blob(b"", "text/plain")}),
    ("load_artifact", {"filename": "t.bin"}),
    ("save_artifact", {"filename": "t.bin", "artifact": text("")}),
    ("load_artifact", {"filename": "t.bin"}),
    ("save_artifact", {"filename": "born_dead", "artifact": blob(b"")}),
    ("load_artifact", {"filename": "born_dead"}),
    ("list_artifact_keys", {}),
    ("save_artifact", {"filename": "user:gone", "artifact": blob(b"")}),
    ("load_artifact", {"filename": "user:gone"}),
    ("delete_artifact", {"filename": "born_dead"}),
    ("list_artifact_keys", {}),
]


async def run_script(service: Any, script: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    results = []
    for method, kwargs in script:
        arguments = {"app_name": APP, "user_id": USER, "session_id": SESSION, **kwargs}
        if method == "list_artifact_keys":
            arguments.pop("filename", None)
        try:
            value = await getattr(service, method)(**arguments)
        except Exception as error:
            results.append({"raised": type(error).__name__, "message": str(error)})
            continue
        results.append(_plain(value))
    return results


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "model_dump"):
        dumped = value.model_dump(exclude_none=True, mode="json")
        dumped.pop("create_time", None)
        return dumped
    return value


def _reference(kind: str, root: Path) -> Any:
    from google.adk.artifacts import FileArtifactService as RefFile
    from google.adk.artifacts import GcsArtifactService as RefGcs
    from google.adk.artifacts import InMemoryArtifactService as RefMemory

    if kind == "gcs":
        return RefGcs(root.name)  # (storage.Client is the fake)
    return RefMemory() if kind == "memory" else RefFile(root)


def _ours(kind: str, root: Path) -> Any:
    if kind == "gcs":
        return GcsArtifactService(root.name)
    return InMemoryArtifactService() if kind == "memory" else FileArtifactService(root)


@pytest.mark.parametrize("kind", ["memory", "file", "gcs"])
async def test_each_operation_matches_google_adk(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_gcs.install(monkeypatch)
    script = SCRIPT + (MEMORY_ONLY if kind != "file" else []) + TOMBSTONES
    reference = await run_script(_reference(kind, tmp_path / "ref"), script)
    ours = await run_script(_ours(kind, tmp_path / "ours"), script)
    # URIs name each side's folder (or bucket)
    text_ref = json.dumps(reference, indent=1).replace(str((tmp_path / "ref").resolve()), "ROOT")
    text_ours = json.dumps(ours, indent=1).replace(str((tmp_path / "ours").resolve()), "ROOT")
    text_ref, text_ours = (
        text_ref.replace("gs://ref/", "gs://B/"),
        text_ours.replace("gs://ours/", "gs://B/"),
    )
    assert text_ours == text_ref
    raised = [r for r in ours if isinstance(r, dict) and "raised" in r]
    assert len(raised) >= 5 and None in ours  # errors and absences both exercised


async def test_the_folder_layout_is_google_adks(tmp_path: Path) -> None:
    """A folder written by one reads in the other: the same files, the same JSON."""
    await run_script(_reference("file", tmp_path / "ref"), SCRIPT[:9])
    await run_script(_ours("file", tmp_path / "ours"), SCRIPT[:9])

    def tree(root: Path) -> dict[str, Any]:
        files = {}
        for path in sorted(root.rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                if path.name == "metadata.json":
                    doc = json.loads(data)
                    doc.pop("createTime")
                    doc["canonicalUri"] = doc["canonicalUri"].replace(root.resolve().as_uri(), "")
                    files[str(path.relative_to(root))] = doc
                else:
                    files[str(path.relative_to(root))] = data.decode("latin-1")
        return files

    assert tree(tmp_path / "ours") == tree(tmp_path / "ref")
    from google.adk.artifacts import FileArtifactService as RefFile

    crossed = await RefFile(tmp_path / "ours").load_artifact(
        app_name=APP, user_id=USER, session_id=SESSION, filename="img.png"
    )
    assert crossed is not None and crossed.inline_data is not None
    assert crossed.inline_data.data == b"\x89PNG" and crossed.inline_data.display_name == "p.png"


async def test_concurrent_saves_get_distinct_versions(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path)
    versions = await asyncio.gather(
        *(
            service.save_artifact(
                app_name=APP, user_id=USER, session_id=SESSION, filename="f", artifact=text(str(i))
            )
            for i in range(8)
        )
    )
    assert sorted(versions) == list(range(8))
    loaded = [
        await service.load_artifact(
            app_name=APP, user_id=USER, session_id=SESSION, filename="f", version=v
        )
        for v in versions
    ]
    assert sorted(p.text for p in loaded if p) == [str(i) for i in range(8)]


async def test_a_killed_save_leaves_no_version_and_takes_none(tmp_path: Path) -> None:
    """A save that fails midway (here: metadata that cannot be serialized) publishes
    nothing; the next save gets the next free number and the folder has no leftovers."""
    service = FileArtifactService(tmp_path)
    scope = {"app_name": APP, "user_id": USER, "session_id": SESSION}
    await service.save_artifact(**scope, filename="f", artifact=text("0"))
    with pytest.raises(pydantic_core.PydanticSerializationError):
        await service.save_artifact(
            **scope, filename="f", artifact=text("1"), custom_metadata={"x": object()}
        )
    assert await service.list_versions(**scope, filename="f") == [0]
    assert await service.save_artifact(**scope, filename="f", artifact=text("1")) == 1
    versions_dir = tmp_path / "apps" / APP / "users" / USER / "sessions" / SESSION
    leftovers = [p.name for p in versions_dir.rglob("*") if p.name.endswith((".pending", ".tmp"))]
    assert leftovers == []


async def test_a_tampered_metadata_uri_is_never_followed(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path / "store")
    scope = {"app_name": APP, "user_id": USER, "session_id": SESSION}
    await service.save_artifact(**scope, filename="f", artifact=blob(b"mine", "x/y"))
    secret = tmp_path / "secret"
    secret.write_bytes(b"secret")
    (metadata,) = (tmp_path / "store").rglob("metadata.json")
    doc = json.loads(metadata.read_text())
    doc["canonicalUri"] = secret.as_uri()
    metadata.write_text(json.dumps(doc))
    loaded = await service.load_artifact(**scope, filename="f")
    assert loaded is not None and loaded.inline_data is not None
    assert loaded.inline_data.data == b"mine"
    info = await service.get_artifact_version(**scope, filename="f")
    assert info is not None and "secret" not in info.canonical_uri


async def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    service = FileArtifactService(tmp_path / "store")
    outside = tmp_path / "outside"
    outside.mkdir()
    session_dir = tmp_path / "store" / "apps" / APP / "users" / USER / "sessions" / SESSION
    (session_dir / "artifacts").mkdir(parents=True)
    os.symlink(outside, session_dir / "artifacts" / "link")
    with pytest.raises(InputValidationError, match="escapes storage directory"):
        await service.save_artifact(
            app_name=APP, user_id=USER, session_id=SESSION, filename="link/f", artifact=text("x")
        )
    assert list(outside.iterdir()) == []


def test_input_validation_error_is_a_value_error() -> None:
    assert issubclass(InputValidationError, ValueError)
    assert str(InputValidationError()) == "Invalid input."


async def test_gcs_hosts_saving_at_once_get_distinct_versions(monkeypatch) -> None:
    """Two workers on one bucket: a save that finds its version taken takes the next."""
    client = fake_gcs.install(monkeypatch)
    first, second = GcsArtifactService("shared"), GcsArtifactService("shared")
    scope = {"app_name": APP, "user_id": USER, "session_id": SESSION, "filename": "f"}
    await first.save_artifact(**scope, artifact=text("0"))
    bucket = client.buckets["shared"]
    real_versions = second._versions
    # the second host listed before the first one's next save landed: it tries 1 first
    monkeypatch.setattr(second, "_versions", lambda *args: [0])
    await first.save_artifact(**scope, artifact=text("1"))
    assert await second.save_artifact(**scope, artifact=text("2")) == 2
    monkeypatch.setattr(second, "_versions", real_versions)
    assert await second.list_versions(**scope) == [0, 1, 2]
    assert bucket.uploads == 3  # the refused create wrote nothing


async def test_gcs_urls_match_google_adk(tmp_path: Path, monkeypatch) -> None:
    fake_gcs.install(monkeypatch)
    results = []
    for service in (_reference("gcs", tmp_path / "b"), _ours("gcs", tmp_path / "b")):
        scope = {"app_name": APP, "user_id": USER, "session_id": SESSION}
        await service.delete_artifact(**scope, filename="a b.txt")
        await service.save_artifact(**scope, filename="a b.txt", artifact=text("x"))
        await service.save_artifact(**scope, filename="r", artifact=ref("a b.txt", 0))
        await service.save_artifact(**scope, filename="u", artifact=types.Part(
            file_data=types.FileData(file_uri="https://x/y")))  # fmt: skip
        results.append(
            [
                await service.get_authenticated_url(**scope, filename="a b.txt"),
                await service.get_authenticated_url(**scope, filename="r"),
                await service.get_authenticated_url(**scope, filename="u"),
                await service.get_authenticated_url(**scope, filename="none"),
                await service.get_signed_url(**scope, filename="r", signing_version="v4"),
            ]
        )
    assert results[0] == results[1]
    assert results[0][0] == "https://storage.cloud.google.com/b/app/u1/s1/a%20b.txt/0"


def test_gcs_without_its_package_says_what_to_install(monkeypatch) -> None:
    import sys

    import google.cloud

    monkeypatch.setitem(sys.modules, "google.cloud.storage", None)
    monkeypatch.delattr(google.cloud, "storage")
    with pytest.raises(ImportError, match=r"pip install 'durable-adk\[gcs\]'"):
        GcsArtifactService("bucket")


@pytest.mark.parametrize(
    ("ours_path", "reference_path", "methods"),
    [
        (
            "adk.agents.callback_context:CallbackContext",
            "google.adk.agents.callback_context:CallbackContext",
            ["save_artifact", "load_artifact", "get_artifact_version", "list_artifacts"],
        ),
        (
            "adk.artifacts.base_artifact_service:BaseArtifactService",
            "google.adk.artifacts.base_artifact_service:BaseArtifactService",
            ["save_artifact", "load_artifact", "list_artifact_keys", "delete_artifact",
             "list_versions", "list_artifact_versions", "get_artifact_version"],
        ),
        (
            "adk.artifacts.gcs_artifact_service:GcsArtifactService",
            "google.adk.artifacts.gcs_artifact_service:GcsArtifactService",
            ["get_authenticated_url", "get_signed_url"],
        ),
    ],
)  # fmt: skip
def test_method_signatures_are_google_adks(ours_path, reference_path, methods) -> None:
    import importlib
    import inspect

    def resolve(path: str) -> Any:
        module, name = path.split(":")
        return getattr(importlib.import_module(module), name)

    ours, reference = resolve(ours_path), resolve(reference_path)
    for method in methods:
        mine = inspect.signature(getattr(ours, method)).parameters
        theirs = inspect.signature(getattr(reference, method)).parameters
        assert [(p.name, p.kind, p.default) for p in mine.values()] == [
            (p.name, p.kind, p.default) for p in theirs.values()
        ], method
