"""The differential cases: each runs on google-adk 2.13 and on ours and must agree.

Runs on: process side (the tests' process; ours on the session's local Temporal).
A case where ours differs today is a strict xfail naming the difference: the
fix makes it XPASS, which fails, so the mark is removed with the fix. The
differences every case shows (kit.GAPS) are checked apart, in test_gaps.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import kit

CASES: dict[str, str | None] = {
    "tools_state_two_turns": None,
    "tools_signatures": None,
    "user_message_parts": None,
    "callback_raises": None,
    "model_response_shapes": None,
    "context_fields": None,
    "node_paths_transfers": None,
    "node_paths_workflow_agents": None,
    "parallel_calls_one_list": None,
    "output_schema_no_tools": None,
    "output_schema_with_tools": None,
    "output_schema_invalid_response": None,
    "output_schema_same_step": None,
    "output_schema_text_answer": None,
    "output_schema_unknown_tool": None,
    "output_schema_agent_tool": None,
    "output_schema_in_sequence": None,
    "run_config_labels": None,
    "run_config_model_input_context": None,
    "run_config_thoughts_from_other_agents": None,
    "transfer_round_trip": None,
    "transfer_rules": None,
    "transfer_unrelated": None,
    "transfer_forbidden": None,
    "transfer_under_shell": None,
    "sequential_parallel_skip": None,
    "parallel_branches_isolated": None,
    "loop_exit_include_none": None,
    "agent_tool_summarization": None,
    "instruction_templating": None,
    "instruction_escaped_braces": None,
    "instruction_missing_key": None,
    "instruction_artifact": None,
    "tool_raises": None,
    "model_raises": None,
    "callbacks_model_and_tool": None,
    "long_running_none": None,
    "sample_quickstart": None,
    "sample_hello_world": None,
    "sample_hello_world_ma": None,
    "sample_callbacks": None,
    "sample_human_in_loop": None,
    "confirmation_approved_rejected": None,
    "confirmation_resumable": None,
    "resumable_long_running": None,
    "confirmation_left_unanswered": None,
    "confirmation_left_unanswered_resumable": None,
    "confirmation_answered_later": None,
    "long_running_transferred": None,
    "resumable_workflow_agents": None,
    "sample_non_llm_sequential": None,
    "sample_workflow_agent_seq": None,
    "sample_simple_sequential": None,
    "sample_fields_output_schema": None,
    "sample_session_state": None,
    "docs_agent_team": None,
    "docs_loop_refinement": None,
    "docs_parallel_research": None,
    "docs_callbacks_modify": None,
    "docs_state_and_providers": None,
    "docs_multi_agent_patterns": None,
    "docs_agent_tool_schemas": None,
    "docs_workflow_callbacks_temp": None,
    "plugin_hooks": None,
    "plugin_run_hooks": None,
    "plugin_errors": None,
    "plugin_raises": None,
    "plugin_agent_tool": None,
    "plugin_reflect_retry": None,
    "plugin_context_and_instruction": None,
    "plugin_logging": None,
    "plugin_debug_logging": None,
    "plugin_multimodal_tool_results": None,
    "plugin_multimodal_session": None,
    "planners": None,
    "code_execution_built_in": None,
    "artifacts_tool_save_load": None,
    "artifacts_no_service": None,
    "artifacts_load_tool": None,
    "artifacts_instruction": None,
    "artifacts_instruction_missing": None,
    "artifacts_user_scoped": None,
    "artifacts_input_blobs": None,
    "artifacts_input_blobs_llm_root": None,
    "plugin_save_files_as_artifacts": None,
    "plugin_save_files_sequential": None,
    "artifacts_agent_tool": None,
    "artifacts_parallel_calls": None,
    "artifacts_code_execution_image": None,
    "yaml_callbacks": None,
    "yaml_pipeline": None,
    "yaml_transfer_tree": None,
    "builtin_gemini_tools": None,
    "transfer_after_agent_callback": None,
    "transfer_after_agent_callback_root": None,
    "example_provider": None,
    "memory_across_sessions": None,
    "code_execution_local": None,
    "code_execution_custom": None,
    "code_execution_planner": None,
    "custom_storyflow": None,
    "custom_router": None,
    "custom_own_events": None,
    "custom_end_and_raise": None,
    "custom_transfer_parallel": None,
    "custom_plugins": None,
    "custom_as_agent_tool": None,
    "custom_transfer_target": None,
    "mcp_toolset": None,
    "compaction_sliding_window": None,
    "compaction_token_threshold": None,
    "compaction_default_summarizer": None,
    "google_search_bypass": None,
    "google_search_bypass_transfer": None,
    "output_schema_capabilities": None,
    "get_user_choice": None,
    "confirmation_transferred_new_message": None,
    "confirmation_transferred_two_answered_apart": None,
    "confirmation_transferred_two_answered_apart_resumable": (
        "2.13 records the target's end_of_agent when the first approval's run stops"
        " without a model call (the other confirmation open: its last two events do not"
        " pause), and again at its end; ours records it once, at its end (an LlmAgent"
        " root shows the same)"
    ),
    "request_input": None,
    "vertex_ai_search": None,
    "vertex_ai_search_refused": None,
    "transfer_target_fails": None,
    "long_running_in_sequence": None,
    "long_running_in_sequence_resumable": None,
    "confirmation_in_parallel": None,
    "confirmation_in_loop": None,
    "confirmation_in_agent_tool": None,
    "long_running_in_agent_tool": None,
    "confirmation_in_parallel_resumable": None,
    "long_running_in_loop_resumable": None,
    "long_running_in_nested_sequence": None,
    "long_running_in_agent_tool_resumable": None,
    "confirmation_nested_resumable": None,
    "long_running_transferred_in_sequence": None,
    "confirmation_in_parallel_answered_later": None,
    "confirmation_in_parallel_two_branches": None,
    "long_running_transferred_in_sequence_resumable": None,
    "long_running_transferred_in_sequence_resumable_callbacks": None,
    "confirmation_transfers_in_sequence_resumable": None,
    "confirmation_transfers_in_sequence": None,
    "confirmation_transfers_resumable": None,
    "confirmation_transferred_transfers": None,
    "confirmation_transferred_transfers_resumable": None,
    "resumable_transfer_nested": None,
    "resume_without_message_intermediate": None,
    "custom_agent_states": None,
    "custom_agent_states_resumable": None,
    "plugin_run_hooks_answers": None,
    "plugin_run_hooks_answers_resumable": None,
    "plugin_run_hooks_answer_transferred": None,
    "resumable_transfer_answered": None,
    "resume_without_message": None,
    "resume_without_message_confirmation": None,
    "resume_without_message_not_resumable": None,
    "resume_without_message_released": None,
    "resume_without_message_sequential_root": None,
    "resume_without_message_sequential_not_resumable": None,
    "answer_for_ended_while_newer_waits": None,
    "answer_for_ended_while_newer_waits_resumable": None,
}


def test_every_case_is_listed() -> None:
    assert sorted(CASES) == kit.case_names()


def _param(name: str, difference: str | None) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=difference)] if difference else []
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("case", [_param(n, d) for n, d in CASES.items()])
async def test_same_as_reference(case: str, temporal_env: Any) -> None:
    reference = await kit.run_reference(case)
    ours = await kit.run_ours(case, temporal_env)
    kit.assert_same(reference, ours)
