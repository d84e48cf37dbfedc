"""LLM flows: the request pipeline (instructions, contents, tools) and function-call handling.

Runs on: activity side (worker process).
"""
