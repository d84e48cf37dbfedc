"""Outputs that are not plain JSON values flowing between nodes: a datetime and bytes
(hinted and not), a pydantic model (dumped to a dict by 2.13 already), a set. 2.13
hands the Python object to the next node; here every output crosses an activity
boundary as JSON, so an unhinted parameter sees the JSON form."""

from datetime import UTC, datetime

from google.adk.workflow import START, Workflow
from pydantic import BaseModel

TURNS = ["go"]


class Point(BaseModel):
    x: int
    y: int | None = None


def make_time(node_input: str) -> datetime:
    return datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def hinted_time(node_input: datetime) -> dict:
    return {"year": node_input.year, "type": type(node_input).__name__}


def make_bytes(node_input: dict) -> bytes:
    return b"\x00abc"


def unhinted(node_input):
    return {"type": type(node_input).__name__}


def make_point(node_input: dict) -> Point:
    return Point(x=1)


def hinted_point(node_input: Point) -> dict:
    return {"x": node_input.x, "type": type(node_input).__name__}


def build(scripted):
    return Workflow(
        name="wf",
        edges=[(START, make_time, hinted_time, make_bytes, unhinted, make_point, hinted_point)],
    )
