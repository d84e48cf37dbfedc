"""The errors a user catches, at google.adk's module paths (`google.adk.errors.*`).

Runs on: process and activity side (plain exception classes).
"""
