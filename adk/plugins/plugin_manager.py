"""PluginManager: runs an app's plugins' hooks in registration order (google.adk 2.13's rules).

Runs on: activity side (every hook runs in the worker process, where the user's
code may do I/O) and process side (registration, `close`).

The first plugin whose hook returns something other than None wins: the plugins
after it are skipped for that hook, and what it returned replaces what would have
happened. A plugin that raises stops the step with
`RuntimeError("Error in plugin '<name>' during '<hook>' callback: <error>")`, the
error chained. The two notification hooks (on_agent_error_callback,
on_run_error_callback) run every plugin whatever each returns or raises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Literal

from .base_plugin import BasePlugin

PluginCallbackName = Literal[
    "on_user_message_callback",
    "before_run_callback",
    "after_run_callback",
    "on_event_callback",
    "before_agent_callback",
    "after_agent_callback",
    "before_tool_callback",
    "after_tool_callback",
    "before_model_callback",
    "after_model_callback",
    "on_tool_error_callback",
    "on_model_error_callback",
    "on_agent_error_callback",
    "on_run_error_callback",
]

logger = logging.getLogger("google_adk.google.adk.plugins.plugin_manager")


class PluginManager:
    """The registered plugins, and the rules for running one hook across them."""

    def __init__(
        self, plugins: Sequence[BasePlugin] | None = None, close_timeout: float = 5.0
    ) -> None:
        self.plugins: list[BasePlugin] = []
        self._close_timeout = close_timeout
        self._skip_closing_plugins = False
        for plugin in plugins or []:
            self.register_plugin(plugin)

    def set_skip_closing_plugins(self, value: bool) -> None:
        """True: `close()` leaves the plugins alone (another component owns them)."""
        self._skip_closing_plugins = value

    def register_plugin(self, plugin: BasePlugin) -> None:
        if any(p.name == plugin.name for p in self.plugins):
            raise ValueError(f"Plugin with name '{plugin.name}' already registered.")
        self.plugins.append(plugin)

    def get_plugin(self, plugin_name: str) -> BasePlugin | None:
        return next((p for p in self.plugins if p.name == plugin_name), None)

    def overrides(self, callback_name: PluginCallbackName) -> bool:
        """Whether any plugin implements the hook (BasePlugin's own does nothing): the
        engine skips the work a hook needs (an activity, a session read) when none does."""
        return any(
            getattr(type(p), callback_name) is not getattr(BasePlugin, callback_name)
            for p in self.plugins
        )

    async def run_on_user_message_callback(
        self, *, user_message: Any, invocation_context: Any
    ) -> Any:
        return await self._run_callbacks(
            "on_user_message_callback",
            user_message=user_message,
            invocation_context=invocation_context,
        )

    async def run_before_run_callback(self, *, invocation_context: Any) -> Any:
        return await self._run_callbacks(
            "before_run_callback", invocation_context=invocation_context
        )

    async def run_after_run_callback(self, *, invocation_context: Any) -> None:
        await self._run_callbacks("after_run_callback", invocation_context=invocation_context)

    async def run_on_event_callback(self, *, invocation_context: Any, event: Any) -> Any:
        return await self._run_callbacks(
            "on_event_callback", invocation_context=invocation_context, event=event
        )

    async def run_before_agent_callback(self, *, agent: Any, callback_context: Any) -> Any:
        return await self._run_callbacks(
            "before_agent_callback", agent=agent, callback_context=callback_context
        )

    async def run_after_agent_callback(self, *, agent: Any, callback_context: Any) -> Any:
        return await self._run_callbacks(
            "after_agent_callback", agent=agent, callback_context=callback_context
        )

    async def run_before_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any
    ) -> Any:
        return await self._run_callbacks(
            "before_tool_callback", tool=tool, tool_args=tool_args, tool_context=tool_context
        )

    async def run_after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> Any:
        return await self._run_callbacks(
            "after_tool_callback",
            tool=tool,
            tool_args=tool_args,
            tool_context=tool_context,
            result=result,
        )

    async def run_on_model_error_callback(
        self, *, callback_context: Any, llm_request: Any, error: Exception
    ) -> Any:
        return await self._run_callbacks(
            "on_model_error_callback",
            callback_context=callback_context,
            llm_request=llm_request,
            error=error,
        )

    async def run_before_model_callback(self, *, callback_context: Any, llm_request: Any) -> Any:
        return await self._run_callbacks(
            "before_model_callback", callback_context=callback_context, llm_request=llm_request
        )

    async def run_after_model_callback(self, *, callback_context: Any, llm_response: Any) -> Any:
        return await self._run_callbacks(
            "after_model_callback", callback_context=callback_context, llm_response=llm_response
        )

    async def run_on_tool_error_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Exception
    ) -> Any:
        return await self._run_callbacks(
            "on_tool_error_callback",
            tool=tool,
            tool_args=tool_args,
            tool_context=tool_context,
            error=error,
        )

    async def run_on_agent_error_callback(
        self, *, agent: Any, callback_context: Any, error: Exception
    ) -> None:
        await self._run_notification_callbacks(
            "on_agent_error_callback", agent=agent, callback_context=callback_context, error=error
        )

    async def run_on_run_error_callback(self, *, invocation_context: Any, error: Exception) -> None:
        await self._run_notification_callbacks(
            "on_run_error_callback", invocation_context=invocation_context, error=error
        )

    async def _run_callbacks(self, callback_name: PluginCallbackName, **kwargs: Any) -> Any:
        """Each plugin in turn until one returns something; that is the result."""
        if self.plugins:
            _release_session(kwargs)
        for plugin in self.plugins:
            try:
                result = await getattr(plugin, callback_name)(**kwargs)
            except Exception as error:
                message = (
                    f"Error in plugin '{plugin.name}' during '{callback_name}' callback: {error}"
                )
                logger.error(message, exc_info=True)
                raise RuntimeError(message) from error
            if result is not None:
                return result
        return None

    async def _run_notification_callbacks(
        self, callback_name: PluginCallbackName, **kwargs: Any
    ) -> None:
        """Every plugin, whatever each returns or raises (a failure is logged)."""
        if self.plugins:
            _release_session(kwargs)
        for plugin in self.plugins:
            try:
                await getattr(plugin, callback_name)(**kwargs)
            except Exception as error:
                logger.error(
                    "Error in plugin '%s' during '%s' callback: %s",
                    plugin.name,
                    callback_name,
                    error,
                    exc_info=True,
                )

    async def close(self) -> None:
        """Close each plugin in turn, each within the close timeout; a cancellation is
        re-raised after the rest are closed, failures are reported together."""
        if self._skip_closing_plugins:
            return
        failures: dict[str, Exception] = {}
        cancelled: asyncio.CancelledError | None = None
        for plugin in self.plugins:
            try:
                async with asyncio.timeout(self._close_timeout):
                    await plugin.close()
            except asyncio.CancelledError as error:
                cancelled = error
                logger.warning("Cancelled while closing plugin: %s", plugin.name)
            except Exception as error:
                failures[plugin.name] = error
                logger.warning("Error while closing plugin %s: %r", plugin.name, error)
        if cancelled is not None:
            raise cancelled
        if failures:
            summary = ", ".join(f"'{name}': {type(e).__name__}" for name, e in failures.items())
            raise RuntimeError(f"Failed to close plugins: {summary}")


def _release_session(hook_kwargs: dict[str, Any]) -> None:
    """A plugin handed the invocation context can reach the session's events: the store's
    cache lets go of them first (see adk/sessions/_event_cache.py)."""
    context = hook_kwargs.get("invocation_context")
    if context is not None:
        from ..sessions._event_cache import release

        release(context.session)
