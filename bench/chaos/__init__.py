"""Reliability scenarios, run on demand: `python -m bench.chaos <scenario>`.

Runs on: process side. See bench/README.md, section 4.
"""
