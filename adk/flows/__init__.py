"""Flows: how an agent builds its model requests and routes a new message.

Runs on: activity side (worker process).
"""
