# Two entry points for a fresh machine (Python 3.11, make, PyPI):
#   make run   - dev server + worker + a sample invocation streaming its events
#   make test  - lint, type-check and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DATA := .data
export DURABLE_ADK_DATA_DIR ?= $(CURDIR)/$(DATA)

.PHONY: install run test lint typecheck pytest server worker stop bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# the test suite also installs google-adk 2.13.0 (test-only: differential tests)
$(BIN)/.reference: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[dev,reference]'
	touch $@

# and the tools that validate deploy/ (compose config, Kubernetes schemas: test-only)
$(BIN)/.deploy-check: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[dev,deploy-check]'
	touch $@

install: $(BIN)/.installed

run: install
	@bash scripts/run_demo.sh

server: install
	@bash scripts/dev_server.sh start

worker: install
	@bash scripts/worker.sh restart examples/weather

stop:
	@bash scripts/worker.sh stop
	@bash scripts/dev_server.sh stop

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy adk workflows activities worker client durable_adk api

pytest: install $(BIN)/.reference $(BIN)/.deploy-check
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: install
	$(BIN)/python -m bench.history_and_overhead

clean:
	rm -rf $(VENV) $(DATA)
