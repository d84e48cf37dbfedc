"""A message for a session whose invocation runs: the app's busy policy.

Runs on: workflow (Temporal sandbox). One workflow id per session means one running
invocation per session. A message sent while it runs reaches it as the
`adk_submit` update, and the app's `busy_policy` (recorded by the begin activity)
decides:

- `reject`: refused (the update's validator: nothing is written to history);
- `queue`: held in the workflow, in arrival order; when the invocation ends (however
  it ends) the workflow continues as new with the first held message as its input
  and the others still queued behind it;
- `interrupt`: held the same way, and the running invocation stops before its next
  model call (workflows/_runtime.py `stop`): what runs now finishes and is recorded,
  then the workflow continues as new with the message.

The continue-as-new input carries how the ended invocation ended (`handed_over`),
so its sender, which waits on that run, learns its outcome there. Held messages are
workflow state: they survive worker restarts (replay rebuilds them from the update
events), and a run that ends hands them over in the same workflow task that checks
them, so none is lost between the check and the end.

A message for an invocation that waits for an answer (a confirmation, a long-running
result) is refused here as busy: answering it is the resume path's business.
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import workflow
from temporalio.exceptions import ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from . import names
    from ._options import failure_message
    from .contracts import EndedInvocation, InvocationInput, InvocationResult, Submitted
    from .errors import find_raised


class HeldMessages:
    """The messages a run of the invocation workflow holds for its session."""

    def __init__(self, own: InvocationInput) -> None:
        self.own = own
        self.queue: list[InvocationInput] = list(own.queued or [])
        self.policy: str | None = None
        """The app's busy policy, once the begin activity has told it."""
        self.interrupted_by: str | None = None

    def known(self, invocation_id: str) -> int | None:
        """The 1-based place of an invocation already held (0: this run's own)."""
        if invocation_id == self.own.invocation_id:
            return 0
        ids = [m.invocation_id for m in self.queue]
        return ids.index(invocation_id) + 1 if invocation_id in ids else None

    def check(self, message: InvocationInput, status: str, done: bool = False) -> None:
        """The update's validator: a refusal writes nothing to history. `done`: the
        invocation has ended and the run is finishing: a refused message is told to
        start anew (the session is free in a moment), not that the session is busy."""
        if message.session != self.own.session:
            raise ApplicationError(
                "The message names another session than this invocation's.",
                type="WrongSession",
                non_retryable=True,
            )
        if self.known(message.invocation_id) is not None:
            return  # a retried submit: the same answer again
        if self.policy == "reject" and done:
            raise self.ended()
        if self.policy == "reject" or status == "waiting":
            raise self.busy(status)

    def ended(self) -> ApplicationError:
        return ApplicationError(
            f"Invocation {self.own.invocation_id} has ended; start the message anew.",
            type=names.ENDED_ERROR,
            non_retryable=True,
        )

    def busy(self, status: str) -> ApplicationError:
        what = "waits for an answer" if status == "waiting" else "is running"
        return ApplicationError(
            f"Invocation {self.own.invocation_id} of this session {what}.",
            type=names.BUSY_ERROR,
            non_retryable=True,
        )

    async def submit(
        self, message: InvocationInput, status: Callable[[], str], done: Callable[[], bool]
    ) -> tuple[Submitted, bool]:
        """Hold `message` by the policy; (the answer, whether to interrupt now)."""
        await workflow.wait_condition(lambda: self.policy is not None or done())
        place = self.known(message.invocation_id)
        if place is None:
            if self.policy is None:  # begin failed: this run ends without running anything
                raise self.ended()
            self.check(message, status(), done())  # (the policy may be known only now)
            self.queue.append(message.model_copy(update={"queued": None, "handed_over": None}))
            place = len(self.queue)
        interrupt = self.policy == "interrupt" and not done() and self.interrupted_by is None
        if interrupt:
            self.interrupted_by = self.newer()
        answer = Submitted(
            invocation_id=message.invocation_id,
            policy=self.policy or "reject",
            behind=self.own.invocation_id,
            position=place,
            run_id=workflow.info().run_id,
        )
        return answer, interrupt

    def newer(self) -> str | None:
        """The first message held (not a wait again for an invocation that gave way:
        InvocationInput.rewait, which interrupts nothing)."""
        return next((m.invocation_id for m in self.queue if not m.rewait), None)

    def interrupt_reason(self) -> str:
        return (
            f"Invocation {self.own.invocation_id} was interrupted by a newer message"
            f" (invocation {self.interrupted_by})."
        )

    def hand_over(self, ended: EndedInvocation) -> None:
        """Continue as new with the first held message, if any (else return)."""
        if not self.queue:
            return
        first, *rest = self.queue
        workflow.continue_as_new(
            first.model_copy(update={"queued": rest or None, "handed_over": ended})
        )


def completed(result: InvocationResult) -> EndedInvocation:
    return EndedInvocation(invocation_id=result.invocation_id, status="completed", result=result)


def ended_by(
    invocation_id: str, error: BaseException, interrupted_by: str | None
) -> EndedInvocation:
    """How an invocation that raised `error` ended, for its sender."""
    error_type, message = failure_message(error)
    if isinstance(error, CancelledError) or not isinstance(error, Exception):
        status = "interrupted" if interrupted_by is not None else "cancelled"
        return EndedInvocation(
            invocation_id=invocation_id,
            status=status,
            error_type="CancelledError",
            error_message=message,
            interrupted_by=interrupted_by,
        )
    return EndedInvocation(
        invocation_id=invocation_id,
        status="failed",
        error_type=error_type,
        error_message=message,
        raised=find_raised(error),
    )
