"""Invocation workflow ids: injective, readable when plain, refused when impossible.

And the checks an answer passes before an invocation accepts it: it names the
invocation's own session, and its value fits what the request declared.
"""

from __future__ import annotations

import itertools

import pytest

from workflows import names
from workflows._humans import check_fit, check_session
from workflows.contracts import HumanAnswer, PendingRequest, SessionRef

TRICKY = ["ada", "ada:s1", "s1:x", "x", "a%3Ab", "a:b", "a/b", "50% off", "josé", "'q'", "a b", "é"]


def test_plain_ids_read_as_before():
    assert names.invocation_workflow_id("weather", "u1", "s1") == "adk:weather:u1:s1"
    assert (
        names.invocation_workflow_id("my-app", "ada@example.com", "s-1f2e_3.x~y+z")
        == "adk:my-app:ada@example.com:s-1f2e_3.x~y+z"
    )
    assert names.invocation_workflow_id("app", "josé", "日本") == "adk:app:josé:日本"


def test_the_issue_collision_is_gone():
    first = names.invocation_workflow_id("app", "ada:s1", "x")
    second = names.invocation_workflow_id("app", "ada", "s1:x")
    assert (first, second) == ("adk:app:ada%3As1:x", "adk:app:ada:s1%3Ax")


def test_ids_are_injective_and_decode_back():
    triples = list(itertools.product(["app", "a:b"], TRICKY, TRICKY))
    ids = {names.invocation_workflow_id(*t): t for t in triples}
    assert len(ids) == len(triples)
    for workflow_id, triple in ids.items():
        assert names.session_of(workflow_id) == triple
        # nothing a shell or the child ids' path syntax would read: no quote, space, '/'
        assert not set(workflow_id) & set("'\" /#")


@pytest.mark.parametrize(
    ("app", "user", "session", "message"),
    [
        ("app", "", "s1", "The user id is empty"),
        ("app", "u1", "   ", "The session id is empty"),
        ("", "u1", "s1", "The app name is empty"),
        ("app", "a\nb", "s1", r"The user id 'a\\nb' contains a control character \('\\n'\)"),
        ("app", "u1", "s\u2028", "The session id .* contains a control character"),
        ("app", "u1", "s\ud800", "not valid Unicode"),
        ("app", "u1", "s" * 790, "too long together: their workflow id would be 801 bytes"),
        ("app", "u1", ":" * 300, "would be 911 bytes, at most 800 fit"),
    ],
)
def test_ids_that_cannot_name_an_invocation(app, user, session, message):
    with pytest.raises(ValueError, match=message):
        names.invocation_workflow_id(app, user, session)


def test_the_longest_ids_leave_room_for_child_runs():
    workflow_id = names.invocation_workflow_id("app", "u1", "s" * 789)
    child = f"{workflow_id}/e-{'0' * 36}/pipeline.research.writer#12"
    assert len(workflow_id.encode()) == 800
    assert len(child.encode()) <= names.MAX_WORKFLOW_ID_BYTES


@pytest.mark.parametrize(
    ("workflow_id", "message"),
    [
        ("adk:app:u1:s1/e-1/billing#1", "a child agent run's: answer through .*'adk:app:u1:s1'"),
        ("adk:app:u1", "is not an invocation's workflow id"),
        ("adk:app:ada:s1:x", "is not an invocation's workflow id"),  # an old, ambiguous id
        ("adk:app:u1:a%3ab", "is not"),  # not how we encode (lower case)
        ("adk:app:u1:%FF", "is not"),  # not UTF-8
        ("other:app:u1:s1", "is not"),
    ],
)
def test_session_of_refuses_what_is_not_an_invocation_id(workflow_id, message):
    with pytest.raises(ValueError, match=message):
        names.session_of(workflow_id)


# ── answers ──────────────────────────────────────────────────────────────────

OURS = SessionRef(app_name="app", user_id="ada", session_id="s1:x")


def _request(kind: str, payload: object = None) -> PendingRequest:
    return PendingRequest(
        id="adk-1",
        kind=kind,  # type: ignore[arg-type]
        call_id="call-1",
        tool="transfer",
        payload=payload,
        agent="bank",
        since=0.0,
        owner_workflow_id="adk:app:ada:s1%3Ax",
    )


def test_an_answer_names_this_invocations_session():
    check_session(HumanAnswer(id="adk-1", kind="approve", session=OURS), OURS)
    with pytest.raises(ValueError, match="does not name the session it is for"):
        check_session(HumanAnswer(id="adk-1", kind="approve"), OURS)
    # user `ada:s1`, session `x`: the session the old ids confused with this one
    other = SessionRef(app_name="app", user_id="ada:s1", session_id="x")
    with pytest.raises(ValueError, match="does not work on session 'x' of user 'ada:s1'") as error:
        check_session(HumanAnswer(id="adk-1", kind="approve", session=other), OURS)
    assert "s1:x" not in str(error.value)  # nothing about whose invocation this is


@pytest.mark.parametrize(
    ("kind", "asked", "value", "message"),
    [
        ("approve", None, [1, 2], r"transfer asked for no payload \(adk-1\): approve it without"),
        ("reject", None, {"why": "no"}, "reject takes no payload"),
        ("respond", None, [1, 2, 3], "must be a JSON object, like .*, not a list"),
        ("progress", None, "half", "must be a JSON object, like .*, not a str"),
    ],
)
def test_answers_that_do_not_fit_their_request(kind, asked, value, message):
    request = _request("confirmation" if kind in ("approve", "reject") else "long_running", asked)
    with pytest.raises(ValueError, match=message):
        check_fit(request, HumanAnswer(id="adk-1", kind=kind, payload=value))


def test_answers_that_fit():
    check_fit(_request("confirmation"), HumanAnswer(id="adk-1", kind="approve"))
    check_fit(_request("confirmation"), HumanAnswer(id="adk-1", kind="reject"))
    asked = _request("confirmation", {"days": 0})
    check_fit(asked, HumanAnswer(id="adk-1", kind="approve", payload={"days": 2}))
    running = _request("long_running")
    check_fit(running, HumanAnswer(id="adk-1", kind="respond", payload={"status": "ok"}))
