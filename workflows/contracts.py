"""Contracts between the workflow and its activities and clients: small pydantic models.

Runs on: both sides (pure data, sandbox-safe). No activity input carries the
conversation: activities get a reference (session key, invocation, branch) and
read the session store themselves. Every field that may be None has a default:
the converter omits None fields (tests/unit pins this). The models recorded in
history are `Compact`: the converter omits their fields at their defaults too, so
a default here is part of the history format (adk/utils/_compact.py).
"""

from __future__ import annotations

from typing import Any, Literal

from google.genai import types
from pydantic import BaseModel, Field, model_validator

from adk.activity_options import ActivityOptions
from adk.agents.run_config import RunConfig
from adk.apps._busy_policy import BusyPolicy
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.events.tool_confirmation import ToolConfirmation
from adk.utils._compact import Compact

from .errors import RaisedError

AgentKind = Literal["llm", "sequential", "parallel", "loop", "custom"]
ToolKind = Literal["function", "long_running", "agent", "transfer", "exit_loop", "unknown"]


class ToolSpec(Compact):
    """A tool as the workflow sees it: name, kind and activity options."""

    name: str
    kind: ToolKind = "function"
    activity_options: ActivityOptions
    """Merged options (tool's own, else the agent's, else the defaults)."""
    agent: AgentSpec | None = None
    """For an AgentTool: the agent it runs (as a child workflow)."""


class AgentSpec(Compact):
    """A serializable description of an agent and its sub-agents.

    Recorded in history by the begin activity: a running invocation keeps the
    tree it started with even if the app's code is redeployed.
    """

    name: str
    kind: AgentKind
    description: str = ""
    model: str | None = None
    """Model name, for summaries (LLM agents)."""
    tools: list[ToolSpec] = Field(default_factory=list)
    sub_agents: list[AgentSpec] = Field(default_factory=list)
    output_key: str | None = None
    accumulates_output: bool = False
    """google-adk 2.13: `output_key` holds all the text of the agent's run (no
    output_schema): an event the workflow builds with text extends it too."""
    max_iterations: int | None = None
    disallow_transfer_to_parent: bool = False
    disallow_transfer_to_peers: bool = False
    include_contents: str = "default"
    model_activity_options: ActivityOptions | None = None
    tool_activity_options: ActivityOptions | None = None
    has_agent_callbacks: bool = False
    step_extras: list[str] = Field(default_factory=list)
    """What else a model step of this agent does, for its Web UI summary (the planner,
    the code executor: "planner PlanReActPlanner", "code BuiltInCodeExecutor")."""
    code_executor: str | None = None
    """The class of the agent's code executor when it runs the model's code in the
    worker (not BuiltInCodeExecutor): each execution is an `adk.execute_code` activity."""
    code_activity_options: ActivityOptions | None = None
    """That activity's options (its timeout follows the executor's timeout_seconds)."""

    def find(self, name: str) -> AgentSpec | None:
        if self.name == name:
            return self
        for sub_agent in self.sub_agents:
            if found := sub_agent.find(name):
                return found
        return None

    def tool(self, name: str) -> ToolSpec | None:
        return next((t for t in self.tools if t.name == name), None)

    def find_anywhere(self, name: str) -> AgentSpec | None:
        """An agent of the tree, or one an AgentTool of the tree runs."""
        if found := self.find(name):
            return found
        for agent in self.walk():
            for tool in agent.tools:
                if tool.agent and (found := tool.agent.find_anywhere(name)):
                    return found
        return None

    def walk(self) -> list[AgentSpec]:
        return [self, *(a for sub in self.sub_agents for a in sub.walk())]

    def parent_of(self, name: str) -> AgentSpec | None:
        for agent in self.walk():
            if any(sub.name == name for sub in agent.sub_agents):
                return agent
        return None


class SessionRef(Compact):
    """Which session an invocation works on."""

    app_name: str
    user_id: str
    session_id: str
    artifact_session: str | None = None
    """An AgentTool's own session: the session whose artifacts its agent uses (its top
    caller's), as google-adk 2.13's AgentTool forwards artifacts to its caller's."""

    def key(self) -> tuple[str, str, str]:
        """(app, user, session)."""
        return self.app_name, self.user_id, self.session_id


def named_by_id() -> SessionRef:
    """The session left out of a payload (RunContext, StepRef) because the workflow id of
    its receiver names it: the receiver fills it in (`names.agent_run_origin`,
    `names.step_origin`). No real session has empty ids."""
    return SessionRef(app_name="", user_id="", session_id="")


class InvocationInput(Compact):
    """What a client sends to start an invocation (nothing secret)."""

    session: SessionRef
    invocation_id: str
    """'e-<uuid>', decided by the client so it can stream the invocation's events."""
    new_message: types.Content | None = None
    state_delta: dict[str, Any] | None = None
    run_config: RunConfig = Field(default_factory=RunConfig)
    queued: list[InvocationInput] | None = None
    """Messages sent while an earlier invocation of the session ran (busy policy
    `queue` or `interrupt`), in arrival order: each runs after this one, as the next
    run of this workflow (continue-as-new)."""
    handed_over: EndedInvocation | None = None
    """How the invocation this run continues from ended (its sender reads it here)."""
    then_wait: InvocationInput | None = None
    """The input of the invocation whose wait for answers this message ended (an answer
    for an older invocation's call, google-adk 2.13's way): once this one has run, the
    workflow waits for that one's open calls again (a run with `rewait`)."""
    rewait: bool = False
    """Run no agent: wait again for the open calls of invocation `invocation_id` (found
    in the session), as the run that gave way for another message waited for them."""


class InvocationResult(Compact):
    """What the workflow returns."""

    invocation_id: str
    final_text: str | None = None
    """Text of the last final response, if any."""
    last_author: str | None = None
    event_count: int = 0
    """Events recorded by this invocation (user event included)."""


EndStatus = Literal["completed", "failed", "interrupted", "cancelled"]


class EndedInvocation(Compact):
    """An invocation that handed its workflow over to the next queued message: what
    its own run would have returned or failed with."""

    invocation_id: str
    status: EndStatus
    result: InvocationResult | None = None
    """completed: what the workflow would have returned."""
    error_type: str | None = None
    error_message: str | None = None
    """failed / cancelled / interrupted: what ended it, as the Web UI would say it."""
    raised: RaisedError | None = None
    """failed: the exception the caller gets back (as a failed workflow carries it)."""
    interrupted_by: str | None = None
    """interrupted: the invocation whose message interrupted it."""


class Submitted(Compact):
    """The answer to a message sent while the session's invocation runs."""

    invocation_id: str
    policy: BusyPolicy
    behind: str
    """The invocation running when it arrived."""
    position: int
    """1: runs next; n: n-1 queued messages run before it."""
    run_id: str
    """The workflow run that accepted it: the runs from there lead to its own."""


class BeginInput(Compact):
    invocation: InvocationInput
    user_event_id: str
    timestamp: float


class NodeRetrySpec(Compact):
    """A node's RetryConfig (None fields take 2.13's defaults when used)."""

    max_attempts: int | None = None
    initial_delay: float | None = None
    max_delay: float | None = None
    backoff_factor: float | None = None
    jitter: float | None = None
    exceptions: list[str] | None = None
    """Class names (None: every exception)."""


class GraphNodeSpec(Compact):
    """A node of a workflow graph as the scheduler sees it (its code runs in an activity)."""

    name: str
    kind: Literal["function", "custom", "workflow"] = "function"
    join: bool = False
    """Waits for every predecessor (a JoinNode: `_requires_all_predecessors`)."""
    wait_for_output: bool = False
    """A run with neither output nor route leaves it waiting, its downstream untriggered."""
    retry: NodeRetrySpec | None = None
    """Its `retry_config` (the workflow retries a failed run: adk/workflow/_retry_config)."""
    timeout: float | None = None
    """Its `timeout` in seconds: a longer run fails with NodeTimeoutError."""
    graph: GraphSpec | None = None
    """A nested Workflow's graph (kind `workflow`): run inline by the scheduler."""


DEFAULT_ROUTE = "__DEFAULT__"


class GraphEdgeSpec(Compact):
    """An edge; `route` (a value, or a list of them: any matches) makes it conditional."""

    source: str
    target: str
    route: Any = None
    """None: always taken; `__DEFAULT__`: taken when no specific route matched."""


class GraphSpec(Compact):
    """A google.adk.workflow Workflow root (docs/design/workflow-graph.md): recorded by
    begin, so a running invocation keeps the graph it started with. START is `__START__`."""

    name: str
    nodes: list[GraphNodeSpec] = Field(default_factory=list)
    edges: list[GraphEdgeSpec] = Field(default_factory=list)
    """In declaration order (the scheduler's order: no sets)."""
    terminal: list[str] = Field(default_factory=list)
    """Nodes with no outgoing edge, in node order: their output is the workflow's."""
    max_concurrency: int | None = None
    """At most this many node runs at once (None or <= 0: unlimited)."""

    def successors(self, name: str) -> list[str]:
        return [edge.target for edge in self.edges if edge.source == name]

    def predecessors(self, name: str) -> list[str]:
        """In edge order, each once."""
        return list(dict.fromkeys(edge.source for edge in self.edges if edge.target == name))

    def node(self, name: str) -> GraphNodeSpec:
        return next(node for node in self.nodes if node.name == name)

    def next_nodes(self, name: str, route: Any) -> list[str]:
        """The targets `name`'s run triggers (google-adk 2.13's `get_next_pending_nodes`):
        unrouted edges always; routed edges whose route (or one of a list) the run's
        route (or one of a list) matches; DEFAULT_ROUTE edges when nothing specific
        matched. In edge order."""
        targets: list[str] = []
        defaults: list[str] = []
        matched = False
        for edge in self.edges:
            if edge.source != name:
                continue
            if edge.route is None:
                targets.append(edge.target)
                continue
            if edge.route == DEFAULT_ROUTE:
                defaults.append(edge.target)
                continue
            routes = edge.route if isinstance(edge.route, list) else [edge.route]
            if isinstance(route, list):
                hit = any(r == wanted for r in routes for wanted in route)
            else:
                hit = route in routes
            if hit:
                targets.append(edge.target)
                matched = True
        if not matched:
            targets.extend(defaults)
        return targets


GraphNodeSpec.model_rebuild()


class BeginOutput(Compact):
    root: AgentSpec
    agent_to_run: str
    """Name of the agent ADK's _find_agent_to_run picked."""
    user_event_recorded: bool
    early_exit: bool = False
    """A plugin's before_run_callback answered: its event is recorded, no agent runs."""
    run_hooks: list[RunHook] = Field(default_factory=list)
    """The app's plugins' hooks the workflows run as activities, those that do something:
    after_run_callback and on_run_error_callback at the end, on_agent_error_callback
    when an agent's run fails."""
    busy_policy: BusyPolicy = "reject"
    """The app's `busy_policy`: what a message sent while this invocation runs does."""
    confirmed: list[ConfirmedCall] = Field(default_factory=list)
    """The confirmations the new message answers (FunctionResponses to
    adk_request_confirmation calls of an invocation that has ended): their tools run
    before the agent, as google-adk 2.13's request_confirmation processor runs them."""
    branch: str | None = None
    """The branch `agent_to_run` goes on: that of the call the message answers (a
    ParallelAgent's branch), as google-adk 2.13 restores it."""
    resumable: bool = False
    """The app is resumable (App.resumability_config): its invocations pause at a pending
    call and record end-of-agent markers, as google-adk 2.13's."""
    invocation_state: dict[str, Any] = Field(default_factory=dict)
    """What a plugin's on_user_message_callback wrote into the session's state directly
    (SaveFilesAsArtifactsPlugin's pending artifact versions): google-adk 2.13 keeps it in
    the invocation's copy of the session, never persisted. The workflow carries it with
    the `temp:` state, so every later activity of the invocation sees it, until an
    event writes the key."""
    inline_workflow_agents: bool = False
    """The worker's choice (build_worker(inline_workflow_agents=)), recorded so the
    invocation keeps it to its end: RunContext.inline_workflow_agents."""
    compaction: bool = False
    """The app compacts events (App.events_compaction_config): the workflow runs the
    compaction activity once the invocation has ended well."""
    reopened: list[PendingRequest] = Field(default_factory=list)
    """InvocationInput.rewait: the invocation's calls still open (its requests)."""
    responded: list[str] = Field(default_factory=list)
    """... and the call ids among them that have an (intermediate) response."""
    graph: GraphSpec | None = None
    """The root is a google.adk.workflow Workflow: its graph runs (workflows/_graph.py);
    `root` then only names it."""


class CompactionInput(Compact):
    """After an invocation: record a compaction event if one is due (google-adk 2.13's
    post-invocation compaction), under `event_id` (a retry records it once)."""

    session: SessionRef
    invocation_id: str
    event_id: str


class CompactionOutput(Compact):
    """What the compaction activity did (small: the summary stays in the store)."""

    recorded: bool = False
    """A compaction event was recorded."""
    start_timestamp: float | None = None
    end_timestamp: float | None = None
    """The time range its summary stands for."""


class ConfirmedCall(BaseModel):
    """A confirmation a new message answers, and the call it confirms."""

    request: PendingRequest
    confirmation: ToolConfirmation


RunHook = Literal[
    "after_run_callback",
    "on_run_error_callback",
    "on_agent_error_callback",
    "on_user_message_callback",
    "before_run_callback",
]
"""The plugins' hooks the workflows run as activities of their own (the last two for an
answer that continues a waiting invocation: AnswerHookInput; the begin activity runs
them for the invocation's own message)."""


class AnswerHookInput(Compact):
    """A plugin hook for an answer continuing a waiting invocation: google-adk 2.13 runs
    each answer message as a run of its own (on_user_message, before_run, after_run)."""

    session: SessionRef
    invocation_id: str
    agent_name: str
    hook: Literal["on_user_message_callback", "before_run_callback"]
    message: types.Content | None = None
    """on_user_message: the answer, as ADK's FunctionResponse message."""
    event_id: str = ""
    """before_run: the answer event's id (a before_run answer's event id derives from it)."""
    temp_state: dict[str, Any] = Field(default_factory=dict)
    run_config: RunConfig | None = None
    """The invocation's RunConfig, for the hook's InvocationContext (and the custom
    metadata of an event it records); None when it is the default."""


class AnswerHookOutput(Compact):
    message: types.Content | None = None
    """on_user_message: the message a plugin put in the answer's place."""
    early_exit: bool = False
    """before_run: a plugin answered instead (its event recorded); no agent runs."""


class RunHookInput(Compact):
    """A plugin hook the workflow runs: after_run, or on_run_error / on_agent_error (with
    the error, and the agent and branch that failed)."""

    session: SessionRef
    invocation_id: str
    agent_name: str
    hook: RunHook
    error: RaisedError | None = None
    branch: str | None = None
    temp_state: dict[str, Any] = Field(default_factory=dict)
    """The invocation's `temp:` state when the hook runs (google-adk 2.13's hooks see
    it in the session's state; never persisted)."""
    run_config: RunConfig | None = None
    """The invocation's RunConfig, for the hook's InvocationContext (and the custom
    metadata of an event it records); None when it is the default."""


class StepRef(Compact):
    """Where in the invocation an activity works: session, invocation, agent, branch.

    `session` and `invocation_id` are left empty (their defaults, so not written) when
    the scheduling workflow's id names them (`names.step_origin`): the activity fills
    them in from its workflow id (activities/_support.py `named_ref`)."""

    session: SessionRef = Field(default_factory=named_by_id)
    invocation_id: str = ""
    agent_name: str
    branch: str | None = None
    temp_state: dict[str, Any] = Field(default_factory=dict)
    """`temp:` state of the invocation (never persisted), and the code executor's
    invocation-scoped keys (CodeExecutionOutput.code_state)."""
    run_config: RunConfig | None = None
    """The invocation's RunConfig, for the activity's InvocationContext (request
    building reads its labels, model_input_context...); None when it is the default."""
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata as its code wrote it (`ctx.custom_metadata`: one
    dict for the invocation in google-adk 2.13); None: as the RunConfig has it."""
    node_path: str = ""
    """The agent run's node path, for the events the activity records (Event.node_info)."""


class ModelStepInput(Compact):
    ref: StepRef
    step: int
    """1-based model call number of this invocation."""
    event_id: str
    """Id of the model event this step records (decided by the workflow: idempotent)."""
    timestamp: float
    pending_events: list[Event] = Field(default_factory=list)
    """Events the workflow decided and holds (merged responses of parallel calls,
    answers): the step persists them before it builds the request. They are small
    or already bounded: a parallel call's response enters history twice at most."""


class CallPlan(Compact):
    """One function call of a model event, with what the workflow needs to run it."""

    id: str
    name: str
    kind: ToolKind
    activity_options: ActivityOptions | None = None
    deadline_seconds: float | None = None
    """Long-running tools: how long to wait for the final result."""
    shares_state: bool = False
    """The call's code can read or write the session state (a context parameter, tool
    callbacks, a toolset...): such calls of one step run one after another in call
    order, each seeing the writes of those before, as google-adk's calls of one step
    share the session state. False: a plain function; it runs alongside them. (The
    model step always sets it; the default keeps older histories replaying as run.)"""


class ModelStepOutput(Compact):
    event: Event | None = None
    """The recorded model event (None when the model returned nothing to record)."""
    calls: list[CallPlan] = Field(default_factory=list)
    temp_delta: dict[str, Any] = Field(default_factory=dict)
    """`temp:` keys the model callbacks wrote (kept by the workflow, never persisted)."""
    end_invocation: bool = False
    """A model callback set `end_invocation`: the agent stops after this step."""
    code_event: Event | None = None
    """The agent's code executor found code in the answer: the recorded event showing
    it (the answer itself is not recorded, `event` is None). The workflow runs the
    code next (`adk.execute_code`), then the loop goes on (google-adk 2.13)."""
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata, when this activity's code changed it (None:
    unchanged); the workflow keeps it (StepRef.custom_metadata)."""


class CodeExecutionInput(Compact):
    """Run the code a model step found (the code is read from its event in the store)."""

    ref: StepRef
    code_event_id: str
    """The model step's event that shows the code (ModelStepOutput.code_event)."""
    event_id: str
    """Id of the result event this execution records (decided by the workflow)."""


class CodeExecutionOutput(Compact):
    event: Event
    """The recorded result event (the execution's output, or its error, for the model)."""
    code_state: dict[str, Any] = Field(default_factory=dict)
    """The code executor's invocation-scoped state (its error counts: see
    adk/code_executors/code_executor_context.py), kept by the workflow with `temp:` state."""
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata, when this activity's code changed it (None:
    unchanged); the workflow keeps it (StepRef.custom_metadata)."""


class ToolCallInput(Compact):
    ref: StepRef
    function_call: types.FunctionCall
    tool_confirmation: ToolConfirmation | None = None
    """Set when re-running a call a human approved or rejected."""
    record_as: str | None = None
    """An event id, set when this is the model event's only call: the activity
    records its response as that event itself, so the response enters history once."""
    retry_errors: bool = False
    """The tool opted into a retry policy: its exception is retried before it fails
    the invocation (by default it fails at once, as in google-adk)."""
    state_before: dict[str, Any] = Field(default_factory=dict)
    """State written by the calls of this step that ran before this one (they share
    the state, as google-adk's calls of one step do)."""
    failed: RaisedError | None = None
    """Set for an AgentTool call whose agent failed: the activity does not run the
    tool but gives this exception to the agent's on_tool_error callbacks (ADK)."""


class ToolCallOutput(Compact):
    response: dict[str, Any] | None = None
    """The function response (None: a long-running tool with nothing yet). A default,
    because the converter omits None fields: without it such an output cannot be read."""
    actions: EventActions = Field(default_factory=EventActions)
    recorded_at: float | None = None
    """The timestamp of the response event the activity recorded (None: not recorded)."""
    display_text: str | None = None
    """A text part to follow the function response (an AgentTool with skip_summarization)."""
    media: list[types.FunctionResponsePart] | None = None
    """Media the tool returned (images, files), carried in its function response."""
    end_invocation: bool = False
    """The tool or a tool callback set `end_invocation`: the agent stops after this step."""
    final_event: Event | None = None
    """After a valid set_model_response call: the agent's final answer event google-adk
    2.13 records after the response (its JSON text, output_key saved). The workflow
    records it after the step's response event, and the agent's run ends."""
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata, when this activity's code changed it (None:
    unchanged); the workflow keeps it (StepRef.custom_metadata)."""


class RunContext(Compact):
    """What every agent run of one invocation shares (root and child workflows).

    In a child's input `session`, `invocation_id` and `root_workflow_id` are left
    empty (their defaults, so not written) when the child's workflow id names them
    (`names.agent_run_origin`): the child workflow fills them in when it starts."""

    session: SessionRef = Field(default_factory=named_by_id)
    invocation_id: str = ""
    run_config: RunConfig = Field(default_factory=RunConfig)
    root: AgentSpec | None = None
    """The agent tree; None in a child's input, which names it by `root_digest`
    (workflows/_specs.py): the child workflow fills it in when it starts."""
    root_digest: str | None = None
    root_workflow_id: str = ""
    run_hooks: list[RunHook] = Field(default_factory=list)
    """BeginOutput.run_hooks: the plugins' hooks the workflows run as activities."""
    inline_workflow_agents: bool = False
    """Opt-in: a Sequential, Parallel or Loop agent that is a step of another one runs
    inline in the workflow that runs its parent (its own sub-agents stay child
    workflows), one child workflow fewer per workflow agent; except under a
    ParallelAgent, whose branches each keep a workflow of their own."""
    resumable: bool = False
    """BeginOutput.resumable."""

    @property
    def tree(self) -> AgentSpec:
        """The agent tree (filled in before any run of the workflow uses it)."""
        assert self.root is not None, "the agent tree was not filled in"
        return self.root


class AgentToolCall(Compact):
    """An AgentTool call: the calling agent's step and the function call."""

    parent: StepRef
    function_call: types.FunctionCall


class AgentRunInput(Compact):
    """Input of the child workflow that runs one sub-agent."""

    context: RunContext
    agent_name: str
    branch: str | None = None
    temp_state: dict[str, Any] = Field(default_factory=dict)
    custom_metadata: dict[str, Any] | None = None
    """StepRef.custom_metadata: the invocation's, as its code wrote it so far (an
    AgentTool's agent starts from the RunConfig's, as 2.13's own Runner does)."""
    llm_calls: int = 0
    """Model calls the invocation made so far (max_llm_calls counts them all)."""
    agent_tool: AgentToolCall | None = None
    """Set when the agent runs as an AgentTool (in a session of its own)."""
    session: SessionRef | None = None
    invocation_id: str | None = None
    """The session and invocation of the run that started this one, when not the root's
    (a transfer inside an AgentTool's agent stays in the AgentTool's session)."""
    records_errors: bool = True
    """Whether a failure of an LLM agent of this run is recorded as an error event:
    google-adk 2.13 records one for an agent run at the top (the root, a transfer
    target, an AgentTool's agent), none under a Sequential, Parallel or Loop agent."""
    node_path: str = ""
    """This run's node path (workflows/_node_paths.py)."""
    reports_state: bool = True
    """Whether the run's result carries the state it wrote (AgentRunResult.state_delta):
    only a ParallelAgent uses it (keys several branches wrote), and whoever reports to
    one. False otherwise, so the result does not carry the state a second time."""
    nested_transfers: bool = False
    """Whether the agent runs under a Sequential, Parallel or Loop agent, where google-adk
    2.13 runs a transfer's target inside the transferring agent's run: that agent's
    after_agent_callback then runs after the target's (here: the parent runs it, see
    AgentRunResult.after_callback_deferred). At the top a transfer ends the agent's run,
    and its after_agent_callback is not run."""
    resume: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Where the workflow agents of a paused resumable invocation resume, by agent name
    (AgentRunResult.resume), once its answers came."""
    changes: int = 0
    """The generation of workflow changes its root run took at its start
    (names.CHANGES_AT_START, workflows/_patches.py): this run takes them too, with no
    marker of its own. 0: decide here (a parent from before)."""
    shell_step: bool = False
    """The run is a step of a Sequential, Parallel or Loop agent (or a transfer from
    one): `records_errors`, `reports_state` and `nested_transfers` then default to
    what such a step has (False, False, True), and its payload leaves them out when
    they are (histories from before write them)."""

    @model_validator(mode="before")
    @classmethod
    def _step_defaults(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("shell_step"):
            return {**_STEP_DEFAULTS, **data}
        return data

    def _written_defaults(self) -> dict[str, Any]:
        defaults = super()._written_defaults()
        return {**defaults, **_STEP_DEFAULTS} if self.shell_step else defaults


_STEP_DEFAULTS: dict[str, Any] = {
    "records_errors": False,
    "reports_state": False,
    "nested_transfers": True,
}
"""AgentRunInput's flags for a step of a shell agent (AgentRunInput.shell_step)."""


class AgentRunResult(Compact):
    """What one agent run reports to whoever ran it."""

    transfer_to: str | None = None
    escalated: bool = False
    end_invocation: bool = False
    """The agent's run ended early (end_invocation): its after_agent_callback is skipped.
    It ends only that agent: each agent has its own invocation context in google-adk."""
    temp_state: dict[str, Any] = Field(default_factory=dict)
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata as the run left it (None: as the RunConfig has it)."""
    llm_calls: int = 0
    state_delta: dict[str, Any] = Field(default_factory=dict)
    """Non-temp state the run wrote (in order; later wins), when asked for
    (AgentRunInput.reports_state)."""
    final_text: str | None = None
    last_author: str | None = None
    event_count: int = 0
    tool_output: ToolCallOutput | None = None
    """For an AgentTool run: the function response for the caller."""
    after_callback_deferred: bool = False
    """The agent transferred under a shell agent: whoever follows the transfer runs its
    after_agent_callback once the target's run is over (AgentRunInput.nested_transfers)."""
    end_deferred: bool = False
    """Likewise for a resumable app's end-of-agent marker: google-adk 2.13 records the
    transferring agent's `end_of_agent` after its target's run (under a shell agent)."""
    deferred: list[PendingRequest] = Field(default_factory=list)
    """The requests a step of a workflow agent left open (google-adk 2.13's pause in a
    default app): whoever ran it stops that workflow agent and, at the top, waits for
    them after the run; the agent that made the call runs again once answered."""
    answers: list[HumanAnswer] = Field(default_factory=list)
    """Answers (and progress reports) to `deferred` requests that reached the run
    before it ended."""
    responded: list[str] = Field(default_factory=list)
    """Call ids of `deferred` requests that have a (an intermediate) response."""
    resume: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """In a resumable app, where each workflow agent the pause stopped resumes (google-adk
    2.13's agent states), by agent name: a Sequential's or Loop's step (`index`, and the
    loop's `times_looped`), a Parallel's branches that ran to their end (`ended`)."""


class AgentCallbackInput(Compact):
    ref: StepRef
    when: Literal["before", "after"]
    event_id: str
    timestamp: float


class AgentCallbackOutput(Compact):
    event: Event | None = None
    temp_delta: dict[str, Any] = Field(default_factory=dict)
    end_invocation: bool = False
    """The callback returned content or set `end_invocation`: the agent ends here."""
    custom_metadata: dict[str, Any] | None = None
    """The invocation's custom metadata, when this activity's code changed it (None:
    unchanged); the workflow keeps it (StepRef.custom_metadata)."""


class BeginAgentToolInput(Compact):
    call: AgentToolCall
    session_id: str
    invocation_id: str
    user_event_id: str
    timestamp: float


class FinishAgentToolInput(Compact):
    call: AgentToolCall
    session_id: str
    invocation_id: str
    final_text: str | None = None
    pending_events: list[Event] = Field(default_factory=list)


class CustomViewInput(BaseModel):
    """What a custom agent's orchestration reads from the session (workflows/_custom.py)."""

    session: SessionRef
    invocation_id: str
    branch: str | None = None
    after_event_id: str | None = None
    """The events of this invocation (and branch) recorded after this one."""
    initial: bool = False
    """The agent starts: its state, the last event's id and the user message instead."""


class CustomViewOutput(BaseModel):
    state: dict[str, Any] = Field(default_factory=dict)
    events: list[Event] = Field(default_factory=list)
    last_event_id: str | None = None
    user_content: types.Content | None = None


class NodeRunInput(Compact):
    """One run of one graph node (`adk.run_node`): where, and its input."""

    ref: StepRef
    """The step: session, invocation, temp state; `agent_name` is the workflow's, the
    author of the node's events; `branch` the run's; `node_path` the run's path."""
    node_name: str
    graph_path: list[str] = Field(default_factory=list)
    """The nested Workflows the node is in, outermost first (none: the root's graph)."""
    node_input: Any = None
    content_input: types.Content | None = None
    """The input when it is a Content (the user's message at START's successors): kept
    typed, so the node's hints coerce it as 2.13 does (its text for a str)."""
    output_for: list[str] = Field(default_factory=list)
    """The workflows whose output this run's output is (a terminal node's)."""
    event_seed: str
    """A uuid the workflow decides: the run's event ids derive from it (a retried
    activity records the same events again; each node attempt has its own)."""
    attempt: int = 1
    """The node's attempt (`ctx.attempt_count`): the workflow retries a failed run
    under the node's `retry_config`, each attempt one activity."""
    timeout: float | None = None
    """The node's `timeout`: the activity runs the node under it (2.13's
    `asyncio.wait_for`), a longer run failing with NodeTimeoutError."""


class NodeRunOutput(Compact):
    """What the run produced: its events (recorded by the activity), its output."""

    events: list[Event] = Field(default_factory=list)
    output: Any = None
    has_output: bool = False
    branch: str | None = None
    """The run's branch at its end (an event may move it): its successors' branch."""
    route: Any = None
    """The run's route (`ctx.route` or a yielded event's): which routed edges it takes."""
    error: RaisedError | None = None
    """The node raised: its error event is the last of `events`; the invocation fails
    with this exception (google-adk 2.13 re-raises it to the caller)."""
    error_classes: list[str] | None = None
    """With `error`: its classes' names (MRO but object), for `RetryConfig.exceptions`."""
    custom_metadata: dict[str, Any] | None = None


class PersistEventsInput(Compact):
    session: SessionRef
    invocation_id: str
    pending_events: list[Event] = Field(default_factory=list)
    run_config: RunConfig | None = None
    """The invocation's RunConfig (its custom metadata goes into each event); None when
    it is the default."""


RequestKind = Literal["confirmation", "long_running"]
AnswerKind = Literal["approve", "reject", "respond", "progress"]


class PendingRequest(BaseModel):
    """Something the invocation waits for a human (or another system) to answer."""

    id: str
    """What an answer names: the adk_request_confirmation call id, or the long-running call id."""
    kind: RequestKind
    call_id: str
    """The original function call's id."""
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    hint: str = ""
    payload: Any = None
    """For a confirmation: the payload the tool asked for (an answer's payload must fit it)."""
    agent: str
    branch: str | None = None
    since: float
    deadline: float | None = None
    """Epoch seconds after which an unanswered call becomes an error result."""
    owner_workflow_id: str
    """The workflow that waits (the root or a child agent run)."""
    answered: bool = False
    awaited: bool = False
    """Its owner waits for it now, with every event recorded before the wait in the
    session store. A long-running call's request is registered before its tool runs
    (an answer may come first) and is awaited only once the step's responses are
    recorded: a stream stops at a wait only then (client events(stop_when_waiting))."""


class HumanAnswer(BaseModel):
    """An answer to a pending request (update or signal)."""

    id: str
    """The request id (for a confirmation, its original call id works too)."""
    kind: AnswerKind
    payload: Any = None
    """approve: optional confirmation payload. respond/progress: the result (an object)."""
    session: SessionRef | None = None
    """The session the answer is for: the invocation refuses it unless that is its own.
    (Optional only so that histories recorded before it existed still replay.)"""
    adk_message: bool = False
    """Sent as ADK's resume message (a FunctionResponse): google-adk 2.13 hands a
    confirmation's payload to the tool whatever the request declared, so it is not
    checked against the request's payload here (our approve/reject are)."""
    response: dict[str, Any] | None = None
    """ADK's message: the FunctionResponse's response as sent (a confirmation's is
    recorded and parsed as 2.13 does). Our approve/reject record
    `{"confirmed": ..., "payload": ...}`, the message 2.13's docs show."""


class InvocationStatus(BaseModel):
    """What the `status` query returns."""

    invocation_id: str
    status: str
    pending: list[PendingRequest] = Field(default_factory=list)


def unless_default(run_config: RunConfig) -> RunConfig | None:
    """The RunConfig for an activity's input: None (nothing sent) when it is the default."""
    return None if run_config == _DEFAULT_RUN_CONFIG else run_config


_DEFAULT_RUN_CONFIG = RunConfig()
