"""Function tools as real agents write them: many signature shapes, many return types.

Declarations for defaults, Optional, Literal, Enum, list[dict], nested pydantic
models as parameters, no docstring, an async tool; results that are a pydantic
model, a list, None, a str, a tuple; a call missing a required argument and a
call of a tool that does not exist.
"""

import enum
from typing import Any, Literal, Optional

from google.adk.agents import LlmAgent
from google.genai import types
from pydantic import BaseModel, Field

TURNS = ["book it", "check the rest", "and the spa?"]


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Address(BaseModel):
    street: str
    city: str = Field(description="The city.")


class Booking(BaseModel):
    guest: str
    nights: int = 1
    address: Optional[Address] = None


def book(
    booking: Booking, priority: Priority = Priority.LOW, notes: Optional[str] = None
) -> Booking:
    """Books a stay.

    Args:
      booking: What to book.
      priority: How urgent.
      notes: Free text.
    """
    return Booking(guest=booking.guest.upper(), nights=booking.nights, address=booking.address)


def list_rooms(
    kind: Literal["single", "double"], filters: list[dict[str, Any]], limit: int = 3
) -> list:
    """Lists rooms of a kind."""
    return [f"{kind}-{i}" for i in range(limit)]


def cancel(booking_id: str):
    return None


async def greet(name: str = "guest") -> str:
    """Greets."""
    return f"hello {name}"


def pair(a: float, b: bool) -> tuple:
    """Returns a pair."""
    return (a, b)


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="hotel",
        model=scripted(
            [
                call(
                    name="book",
                    args={
                        "booking": {
                            "guest": "ada",
                            "nights": 2,
                            "address": {"street": "1 Main", "city": "Oslo"},
                        },
                        "priority": "high",
                    },
                ),
                call(name="list_rooms", args={"kind": "double", "filters": [{"view": "sea"}]}),
                call(name="cancel", args={"booking_id": "b1"}),
            ],
            "Booked.",
            [call(name="greet", args={}), call(name="pair", args={"a": 1.5, "b": True})],
            call(name="list_rooms", args={"kind": "single"}),
            "Missing filters.",
            call(name="book_spa", args={"day": "monday"}),
            "No spa tool.",
            model="gemini-2.5-flash",
        ),
        tools=[book, list_rooms, cancel, greet, pair],
    )
