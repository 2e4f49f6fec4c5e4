# Tabletop: the two commands are `make run` and `make test`; both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast fuzz protos lint venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## Start the whole stack locally (embedded Redis unless TABLETOP_REDIS_URL is set).
run: $(STAMP)
	$(BIN)/tabletop run

## Run every test (unit, integration against real Redis and servers, deploy checks).
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

## The fast tier for a developer's loop: rules engines, conformance, wire, layers, renderers (no servers).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not integration and not slow"

## The long fuzz (not in `make test`, which sends 6,000): 1,000,000 random requests to every RPC of a real service and
## worker; prints the count, the seconds and the status codes. TABLETOP_FUZZ_REQUESTS / TABLETOP_FUZZ_SEED change it.
fuzz: $(STAMP)
	TABLETOP_FUZZ_REQUESTS=$${TABLETOP_FUZZ_REQUESTS:-1000000} $(BIN)/python -m pytest -q -s --timeout=0 \
		tests/service/test_fuzz.py -k random_requests_to_every_rpc

## Regenerate the Python code from protos/ (committed; a test fails when it is stale).
protos: $(STAMP)
	$(BIN)/python -m commands.protogen

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache
