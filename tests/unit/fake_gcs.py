"""A fake google-cloud-storage client: buckets of blobs in memory, with the behaviour
GcsArtifactService relies on (create-only uploads, prefix listing in name order,
metadata, content types, creation times).

Runs on: test process only. `install(monkeypatch)` replaces `storage.Client`, so
google-adk's service and ours both run on it.
"""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from google.cloud import exceptions, storage

_clock = itertools.count()


class FakeBlob:
    def __init__(self, bucket: FakeBucket, name: str) -> None:
        self.bucket = bucket
        self.name = name
        self.metadata: dict[str, str] | None = None
        self.content_type: str | None = None
        self.time_created: datetime.datetime | None = None
        self._data = b""

    def upload_from_string(
        self,
        data: str | bytes,
        content_type: str | None = "text/plain",
        if_generation_match: int | None = None,
        **_: Any,
    ) -> None:
        if if_generation_match == 0 and self.name in self.bucket.blobs:
            raise exceptions.PreconditionFailed(f"{self.name} exists")
        self.bucket.uploads += 1
        self._data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        self.content_type = content_type or self.content_type or "application/octet-stream"
        epoch = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        self.time_created = epoch + datetime.timedelta(seconds=next(_clock))
        self.bucket.blobs[self.name] = self

    def download_as_bytes(self, **_: Any) -> bytes:
        return self._data

    def delete(self, **_: Any) -> None:
        if self.name not in self.bucket.blobs:
            raise exceptions.NotFound(self.name)
        del self.bucket.blobs[self.name]

    def generate_signed_url(self, **options: Any) -> str:
        query = "&".join(f"{k}={v}" for k, v in sorted(options.items()))
        return f"https://signed.example/{self.bucket.name}/{self.name}?{query}"


class FakeBucket:
    def __init__(self, name: str) -> None:
        self.name = name
        self.blobs: dict[str, FakeBlob] = {}
        self.uploads = 0

    def blob(self, name: str) -> FakeBlob:
        return FakeBlob(self, name)

    def get_blob(self, name: str) -> FakeBlob | None:
        return self.blobs.get(name)


class FakeClient:
    buckets: dict[str, FakeBucket] = {}

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs

    def bucket(self, name: str) -> FakeBucket:
        return self.buckets.setdefault(name, FakeBucket(name))

    def list_blobs(self, bucket: FakeBucket, prefix: str = "") -> list[FakeBlob]:
        return [bucket.blobs[n] for n in sorted(bucket.blobs) if n.startswith(prefix)]


def install(monkeypatch: Any) -> type[FakeClient]:
    """Every `storage.Client(...)` from now on (this test) is a fake, with fresh buckets."""
    client = type("FakeClient", (FakeClient,), {"buckets": {}})
    monkeypatch.setattr(storage, "Client", client)
    return client
