"""A slow weather app for durability tests: `python -m worker tests/apps/slow_weather`."""
