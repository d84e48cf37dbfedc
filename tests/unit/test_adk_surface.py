"""google.adk 2.13's surface, compared with ours by introspection: the module tree
imports as written, and the public classes take the same parameters and pydantic
fields (names, aliases, defaults). Ours may have more (durable-adk's own options).

Runs on: test process only (google-adk is the test-only reference).
"""

from __future__ import annotations

import enum
import importlib
import inspect
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

# module (under google.adk / adk) -> names a user imports from it
MODULE_TREE = {
    "agents": ["Agent", "BaseAgent", "LlmAgent", "LoopAgent", "ParallelAgent", "RunConfig",
               "SequentialAgent", "InvocationContext", "McpInstructionProvider"],
    "agents.mcp_instruction_provider": ["McpInstructionProvider"],
    "agents.llm_agent": ["LlmAgent", "Agent"],
    "agents.base_agent": ["BaseAgent"],
    "agents.sequential_agent": ["SequentialAgent"],
    "agents.parallel_agent": ["ParallelAgent"],
    "agents.loop_agent": ["LoopAgent"],
    "agents.invocation_context": ["InvocationContext"],
    "agents.callback_context": ["CallbackContext"],
    "agents.context": ["Context"],
    "": ["Agent", "Context", "Event", "Runner"],
    "agents.readonly_context": ["ReadonlyContext"],
    "agents.run_config": ["RunConfig", "StreamingMode"],
    "workflow": ["BaseNode", "DEFAULT_ROUTE", "Edge", "FunctionNode", "JoinNode", "Node",
                 "NodeTimeoutError", "RetryConfig", "START", "Workflow", "node"],
    "events.request_input": ["RequestInput"],
    "events.ui_widget": ["UiWidget"],
    "apps": ["App", "ResumabilityConfig"],
    "apps.app": ["App", "ResumabilityConfig", "EventsCompactionConfig"],
    "runners": ["Runner", "InMemoryRunner"],
    "tools": ["AgentTool", "BaseTool", "ExampleTool", "FunctionTool", "LongRunningFunctionTool",
              "ToolContext", "TransferToAgentTool", "exit_loop", "google_search", "load_artifacts",
              "load_memory", "preload_memory", "transfer_to_agent", "url_context"],
    "tools.function_tool": ["FunctionTool"],
    "tools.long_running_tool": ["LongRunningFunctionTool"],
    "tools.agent_tool": ["AgentTool"],
    "tools.exit_loop_tool": ["exit_loop"],
    "tools.transfer_to_agent_tool": ["transfer_to_agent", "TransferToAgentTool"],
    "tools.tool_context": ["ToolContext"],
    "tools.tool_confirmation": ["ToolConfirmation"],
    "tools.base_tool": ["BaseTool"],
    "tools.mcp_tool": ["McpToolset", "MCPToolset", "McpTool", "MCPTool", "StdioConnectionParams",
                       "SseConnectionParams", "StreamableHTTPConnectionParams"],
    "tools.mcp_tool.mcp_toolset": ["McpToolset", "MCPToolset", "McpToolsetConfig"],
    "tools.mcp_tool.mcp_tool": ["McpTool", "MCPTool"],
    "tools.mcp_tool.mcp_session_manager": ["MCPSessionManager", "StdioConnectionParams",
                                           "SseConnectionParams", "StreamableHTTPConnectionParams",
                                           "StdioServerParameters", "retry_on_errors",
                                           "SseServerParams", "StreamableHTTPServerParams"],
    "tools.base_toolset": ["BaseToolset"],
    "tools.google_search_tool": ["GoogleSearchTool", "google_search"],
    "tools.url_context_tool": ["UrlContextTool", "url_context"],
    "tools.load_memory_tool": ["LoadMemoryTool", "load_memory_tool"],
    "tools.preload_memory_tool": ["PreloadMemoryTool", "preload_memory_tool"],
    "tools.example_tool": ["ExampleTool"],
    "examples.example_util": ["build_example_si", "convert_examples_to_text"],
    "errors.already_exists_error": ["AlreadyExistsError"],
    "errors.not_found_error": ["NotFoundError"],
    "errors.session_not_found_error": ["SessionNotFoundError"],
    "events": ["Event", "EventActions", "RequestInput"],
    "events.event": ["Event"],
    "events.event_actions": ["EventActions"],
    "sessions": ["BaseSessionService", "InMemorySessionService", "Session", "State"],
    "models": ["BaseLlm", "Gemini", "LLMRegistry"],
    "models.llm_request": ["LlmRequest"],
    "models.llm_response": ["LlmResponse"],
    "planners": ["BasePlanner", "BuiltInPlanner", "PlanReActPlanner"],
    "code_executors": ["BaseCodeExecutor", "BuiltInCodeExecutor", "CodeExecutorContext",
                       "UnsafeLocalCodeExecutor"],
    "plugins": ["BasePlugin", "DebugLoggingPlugin", "LoggingPlugin", "ReflectAndRetryToolPlugin",
                "ToolResultClassification", "ToolResultClassifier"],
    "plugins.debug_logging_plugin": ["DebugLoggingPlugin"],
    "plugins.multimodal_tool_results_plugin": ["MultimodalToolResultsPlugin"],
    "plugins.base_plugin": ["BasePlugin"],
    "examples": ["BaseExampleProvider", "Example"],
    "memory": ["BaseMemoryService", "InMemoryMemoryService"],
    "artifacts": ["BaseArtifactService", "FileArtifactService", "GcsArtifactService",
                  "InMemoryArtifactService"],
    "artifacts.base_artifact_service": ["ArtifactVersion", "BaseArtifactService", "ensure_part"],
    "artifacts.in_memory_artifact_service": ["InMemoryArtifactService"],
    "artifacts.file_artifact_service": ["FileArtifactService", "FileArtifactVersion"],
    "artifacts.gcs_artifact_service": ["GcsArtifactService"],
    "artifacts.artifact_util": ["ParsedArtifactUri", "parse_artifact_uri", "get_artifact_uri",
                                "is_artifact_ref", "validate_path_segment",
                                "validate_artifact_reference_scope",
                                "resolve_artifact_reference"],
    "errors.input_validation_error": ["InputValidationError"],
    "plugins.save_files_as_artifacts_plugin": ["SaveFilesAsArtifactsPlugin"],
    "tools.load_artifacts_tool": ["LoadArtifactsTool", "load_artifacts_tool",
                                  "as_safe_part_for_llm"],
    "utils": [],
    "agents.config_agent_utils": ["from_config", "resolve_agent_reference", "resolve_code_reference",
                                  "resolve_callbacks", "resolve_fully_qualified_name"],
    "agents.agent_config": ["AgentConfig", "agent_config_discriminator"],
    "agents.base_agent_config": ["BaseAgentConfig"],
    "agents.llm_agent_config": ["LlmAgentConfig"],
    "agents.loop_agent_config": ["LoopAgentConfig"],
    "agents.parallel_agent_config": ["ParallelAgentConfig"],
    "agents.sequential_agent_config": ["SequentialAgentConfig"],
    "agents.common_configs": ["AgentRefConfig", "CodeConfig"],
    "tools.tool_configs": ["BaseToolConfig", "ToolArgsConfig", "ToolConfig"],
    "utils.yaml_utils": ["load_yaml_file", "dump_pydantic_to_yaml"],
    "utils.model_name_utils": ["extract_model_name", "is_gemini_model", "is_gemini_1_model",
                               "is_gemini_eap_or_2_or_above", "is_gemini_3_5_live_translate",
                               "is_gemini_model_id_check_disabled"],
    "utils.output_schema_utils": ["can_use_output_schema_with_tools"],
    "utils.context_utils": ["Aclosing", "find_context_parameter"],
    "utils.agent_info": ["AgentInfo", "get_tools_info", "get_agents_dict"],
    "errors.tool_execution_error": ["ToolErrorType", "ToolExecutionError"],
    "tools.openapi_tool": ["OpenAPIToolset", "RestApiTool"],
    "tools.openapi_tool.openapi_spec_parser": ["OpenApiSpecParser", "OperationEndpoint",
                                               "ParsedOperation", "OpenAPIToolset",
                                               "OperationParser", "RestApiTool",
                                               "snake_to_lower_camel"],
    "tools.openapi_tool.openapi_spec_parser.openapi_toolset": ["OpenAPIToolset"],
    "tools.openapi_tool.openapi_spec_parser.rest_api_tool": ["RestApiTool", "snake_to_lower_camel"],
    "tools.openapi_tool.openapi_spec_parser.operation_parser": ["OperationParser"],
    "tools.openapi_tool.openapi_spec_parser.openapi_spec_parser": [
        "OpenApiSpecParser", "OperationEndpoint", "ParsedOperation"],
    "tools.openapi_tool.common": ["common"],
    "tools.openapi_tool.common.common": ["ApiParameter", "TypeHintHelper", "PydocHelper",
                                         "rename_python_keywords"],
    "tools.openapi_tool.auth": ["auth_helpers"],
    "tools.openapi_tool.auth.auth_helpers": ["token_to_scheme_credential", "credential_to_param",
                                             "dict_to_auth_scheme", "INTERNAL_AUTH_PREFIX",
                                             "OpenIdConfig",
                                             "service_account_dict_to_scheme_credential",
                                             "service_account_scheme_credential",
                                             "openid_dict_to_scheme_credential",
                                             "openid_url_to_scheme_credential"],
    "auth": ["AuthCredential", "AuthCredentialTypes", "AuthScheme", "AuthSchemeType",
             "OAuth2Auth", "OpenIdConnectWithConfig"],
    "auth.auth_credential": ["AuthCredential", "AuthCredentialTypes", "HttpAuth",
                             "HttpCredentials", "OAuth2Auth", "ServiceAccount",
                             "ServiceAccountCredential", "BaseModelWithConfig"],
    "auth.auth_schemes": ["AuthScheme", "AuthSchemeType", "OpenIdConnectWithConfig",
                          "CustomAuthScheme", "OAuthGrantType", "ExtendedOAuth2"],
}  # fmt: skip


@pytest.mark.parametrize("path", sorted(MODULE_TREE))
def test_the_module_tree_imports_as_google_adks(path: str) -> None:
    reference = importlib.import_module(f"google.adk.{path}".rstrip("."))
    ours = importlib.import_module(f"adk.{path}".rstrip("."))
    for name in MODULE_TREE[path]:
        assert hasattr(reference, name), f"google.adk.{path} has no {name}: fix the list"
        assert hasattr(ours, name), f"adk.{path} lacks {name}"


# (module, old name, name): google.adk keeps an older name as an alias of the same object
ALIASES = [
    ("tools.mcp_tool.mcp_session_manager", "SseServerParams", "SseConnectionParams"),
    ("tools.mcp_tool.mcp_session_manager", "StreamableHTTPServerParams",
     "StreamableHTTPConnectionParams"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "alias", "name"), ALIASES)
def test_old_names_are_aliases_as_in_google_adk(path: str, alias: str, name: str) -> None:
    reference = importlib.import_module(f"google.adk.{path}")
    ours = importlib.import_module(f"adk.{path}")
    assert getattr(reference, alias) is getattr(reference, name), "fix the list"
    assert getattr(ours, alias) is getattr(ours, name)


# (module, class) compared; ours must take every parameter / field google.adk's does
CLASSES = [
    ("agents.llm_agent", "LlmAgent"), ("agents.base_agent", "BaseAgent"),
    ("agents.sequential_agent", "SequentialAgent"), ("agents.parallel_agent", "ParallelAgent"),
    ("agents.loop_agent", "LoopAgent"), ("agents.run_config", "RunConfig"),
    ("apps.app", "App"), ("apps.app", "ResumabilityConfig"), ("apps.app", "EventsCompactionConfig"),
    ("runners", "Runner"), ("runners", "InMemoryRunner"),
    ("events.event", "Event"), ("events.event_actions", "EventActions"),
    ("tools.tool_confirmation", "ToolConfirmation"),
    ("tools.function_tool", "FunctionTool"), ("tools.long_running_tool", "LongRunningFunctionTool"),
    ("tools.agent_tool", "AgentTool"), ("tools.tool_context", "ToolContext"),
    ("agents.callback_context", "CallbackContext"), ("agents.readonly_context", "ReadonlyContext"),
    ("agents.context", "Context"),
    ("agents.invocation_context", "InvocationContext"),
    ("tools.base_tool", "BaseTool"), ("tools.base_toolset", "BaseToolset"),
    ("tools.google_search_tool", "GoogleSearchTool"), ("tools.url_context_tool", "UrlContextTool"),
    ("tools.load_artifacts_tool", "LoadArtifactsTool"), ("tools.example_tool", "ExampleTool"),
    ("sessions.session", "Session"), ("sessions.state", "State"),
    ("sessions.base_session_service", "BaseSessionService"),
    ("sessions.in_memory_session_service", "InMemorySessionService"),
    ("models.base_llm", "BaseLlm"), ("models.llm_request", "LlmRequest"),
    ("models.llm_response", "LlmResponse"), ("models.registry", "LLMRegistry"),
    ("models.google_llm", "Gemini"),
    ("planners.built_in_planner", "BuiltInPlanner"),
    ("code_executors.base_code_executor", "BaseCodeExecutor"),
    ("code_executors.unsafe_local_code_executor", "UnsafeLocalCodeExecutor"),
    ("plugins.base_plugin", "BasePlugin"), ("plugins.logging_plugin", "LoggingPlugin"),
    ("plugins.reflect_retry_tool_plugin", "ReflectAndRetryToolPlugin"),
    ("plugins.debug_logging_plugin", "DebugLoggingPlugin"),
    ("plugins.multimodal_tool_results_plugin", "MultimodalToolResultsPlugin"),
    ("examples.example", "Example"),
    ("artifacts.base_artifact_service", "ArtifactVersion"),
    ("artifacts.in_memory_artifact_service", "InMemoryArtifactService"),
    ("artifacts.file_artifact_service", "FileArtifactService"),
    ("artifacts.file_artifact_service", "FileArtifactVersion"),
    ("artifacts.gcs_artifact_service", "GcsArtifactService"),
    ("plugins.save_files_as_artifacts_plugin", "SaveFilesAsArtifactsPlugin"),
    ("agents.base_agent_config", "BaseAgentConfig"), ("agents.llm_agent_config", "LlmAgentConfig"),
    ("agents.loop_agent_config", "LoopAgentConfig"),
    ("agents.parallel_agent_config", "ParallelAgentConfig"),
    ("agents.sequential_agent_config", "SequentialAgentConfig"),
    ("agents.common_configs", "AgentRefConfig"), ("agents.common_configs", "CodeConfig"),
    ("tools.tool_configs", "ToolConfig"), ("tools.tool_configs", "ToolArgsConfig"),
    ("tools.agent_tool", "AgentToolConfig"), ("tools.example_tool", "ExampleToolConfig"),
    ("errors.tool_execution_error", "ToolExecutionError"),
    ("tools.mcp_tool.mcp_toolset", "McpToolset"), ("tools.mcp_tool.mcp_tool", "McpTool"),
    ("tools.mcp_tool.mcp_toolset", "McpToolsetConfig"),
    ("agents.mcp_instruction_provider", "McpInstructionProvider"),
    ("utils.agent_info", "AgentInfo"),
    ("tools.mcp_tool.mcp_session_manager", "StdioConnectionParams"),
    ("tools.mcp_tool.mcp_session_manager", "SseConnectionParams"),
    ("tools.mcp_tool.mcp_session_manager", "StreamableHTTPConnectionParams"),
    ("tools.openapi_tool.openapi_spec_parser.openapi_toolset", "OpenAPIToolset"),
    ("tools.openapi_tool.openapi_spec_parser.rest_api_tool", "RestApiTool"),
    ("tools.openapi_tool.openapi_spec_parser.operation_parser", "OperationParser"),
    ("tools.openapi_tool.openapi_spec_parser.openapi_spec_parser", "OpenApiSpecParser"),
    ("tools.openapi_tool.openapi_spec_parser.openapi_spec_parser", "ParsedOperation"),
    ("tools.openapi_tool.openapi_spec_parser.openapi_spec_parser", "OperationEndpoint"),
    ("tools.openapi_tool.common.common", "ApiParameter"),
    ("tools.openapi_tool.auth.auth_helpers", "OpenIdConfig"),
    ("auth.auth_credential", "AuthCredential"), ("auth.auth_credential", "HttpAuth"),
    ("auth.auth_credential", "HttpCredentials"), ("auth.auth_credential", "OAuth2Auth"),
    ("auth.auth_credential", "ServiceAccount"),
    ("auth.auth_credential", "ServiceAccountCredential"),
    ("auth.auth_schemes", "OpenIdConnectWithConfig"), ("auth.auth_schemes", "CustomAuthScheme"),
    ("auth.auth_schemes", "ExtendedOAuth2"),
    ("workflow", "BaseNode"), ("workflow", "Workflow"), ("workflow", "FunctionNode"),
    ("workflow", "JoinNode"), ("workflow", "Node"), ("workflow", "Edge"),
    ("workflow", "RetryConfig"), ("events.request_input", "RequestInput"),
    ("events.ui_widget", "UiWidget"),
]  # fmt: skip

_NODE = "google.adk 2.x workflow-node context (Workflow graphs are not implemented)"
_NODE_CONTEXT_FIELDS = [
    "parent_ctx",
    "node",
    "node_path",
    "run_id",
    "resume_inputs",
    "attempt_count",
    "use_as_output",
]
"""The workflow-node keywords google.adk 2.13's Context (ToolContext, CallbackContext) takes."""
_FACTORY = {
    "httpx_client_factory": "the MCP SDK's create_mcp_http_client (google.adk's wraps it to add"
    " OpenTelemetry instrumentation)"
}
KNOWN_DIFFERENCES: dict[str, dict[str, str]] = {
    "SseConnectionParams": _FACTORY,
    "StreamableHTTPConnectionParams": _FACTORY,
    "Runner": {"session_service": "optional here: defaults to an InMemorySessionService"},
    "RunConfig": {"max_llm_calls": "500, as google.adk's; $ADK_MAX_LLM_CALLS is not read"},
    "Context": dict.fromkeys(_NODE_CONTEXT_FIELDS, _NODE),
    "ToolContext": dict.fromkeys(_NODE_CONTEXT_FIELDS, _NODE),
    "CallbackContext": {
        **dict.fromkeys(_NODE_CONTEXT_FIELDS, _NODE),
        **dict.fromkeys(
            ["function_call_id", "tool_confirmation"],
            "on ToolContext here (google.adk 2.13 merged both into Context)",
        ),
    },
    "InvocationContext": {
        "session_service": "optional here (activities rebuild the context from the store)",
        "agent": "required here",
        "run_config": "a RunConfig() by default here",
        **dict.fromkeys(
            [
                "context_cache_config",
                "isolation_scope",
                "node_path",
                "live_request_queue",
                "transcription_cache",
                "live_session_resumption_handle",
                "input_realtime_cache",
                "output_realtime_cache",
                "events_compaction_config",
                "token_compaction_checked",
                "canonical_tools_cache",
                "credential_by_key",
            ],
            "runner-internal state of google.adk's in-process loop; the workflow keeps its own",
        ),  # fmt: skip
    },
}


def _default(value: Any) -> Any:
    """A default, comparable across the two packages (whose enums and models differ)."""
    if value is PydanticUndefined or value is inspect.Parameter.empty:
        return "<required>"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    return value


def _field_default(field: Any) -> Any:
    if field.default_factory is None:
        return _default(field.default)
    return f"<a new {type(field.default_factory()).__name__}>"


def _surface(cls: type) -> dict[str, tuple[Any, ...]]:
    """name -> (kind or alias, default) of the constructor's parameters / model fields."""
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        return {
            name: (field.alias, _field_default(field)) for name, field in cls.model_fields.items()
        }
    parameters = inspect.signature(cls.__init__).parameters  # type: ignore[misc]
    return {
        name: (p.kind.name, _default(p.default))
        for name, p in parameters.items()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }


@pytest.mark.parametrize(("path", "name"), CLASSES, ids=[name for _, name in CLASSES])
def test_constructor_parameters_and_fields_match_google_adks(path: str, name: str) -> None:
    reference = _surface(getattr(importlib.import_module(f"google.adk.{path}"), name))
    ours = _surface(getattr(importlib.import_module(f"adk.{path}"), name))
    known = KNOWN_DIFFERENCES.get(name, {})
    differences = [
        f"{key}: google.adk {reference[key]}, ours {ours.get(key, 'missing')}"
        for key in reference
        if key not in known and (key not in ours or ours[key] != reference[key])
    ]
    assert not differences, f"{name} differs from google.adk 2.13's:\n" + "\n".join(differences)
    stale = [
        key for key in known if key in ours and key in reference and ours[key] == reference[key]
    ]
    assert not stale, f"{name}: no longer differs, drop from KNOWN_DIFFERENCES: {stale}"
