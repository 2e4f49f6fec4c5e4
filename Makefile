# Tabletop: the two commands are `make run` and `make test`; both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

WEB := clients/web
NODE_EXAMPLE := clients/examples/node
WEB_STAMP := $(WEB)/.build-stamp
WEB_SOURCES := $(WEB)/package-lock.json $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json \
	$(WEB)/buf.gen.yaml $(filter-out $(WEB)/src/gen/%,$(wildcard $(WEB)/src/*.* $(WEB)/src/*/*.*)) \
	$(wildcard protos/tabletop/v1/*.proto protos/google/rpc/*.proto)

.PHONY: run test test-fast fuzz protos lint venv clean web web-if-node node-deps-if-node

venv: $(STAMP)

# The modules setup.py compiles with mypyc (where a C compiler exists): an edit to one installs again, so that the
# compiled path runs what the sources say (games.compiled runs the sources meanwhile, never a stale extension).
COMPILED_SOURCES := $(shell grep -oE '"(games|ai)/[a-z_/]+\.py"' setup.py | tr -d '"')

# Two distributions, in one pip call so that the server's dependency on tabletop-client is met from this clone:
# the client (clients/python: tabletop.client, tabletop.v1) and the server (the rest), both editable; the server's
# build compiles the rules and the search's loop (setup.py), or says why it could not and installs them pure.
$(STAMP): pyproject.toml setup.py clients/python/pyproject.toml $(COMPILED_SOURCES)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ./clients/python -e '.[dev]'
	@$(BIN)/python -c 'from games import compiled; print("make: the rules run", compiled.PATH)'
	@touch $(STAMP)

## Start the whole stack locally (embedded Redis and PostgreSQL unless TABLETOP_REDIS_URL / TABLETOP_DATABASE_URL are
## set, the archive writer) and the web table.
run: $(STAMP) web-if-node
	$(BIN)/tabletop run

## Build the web table (clients/web/dist, served by the gateway) from its lock file and protos/; needs Node.js.
web: $(WEB_STAMP)

$(WEB_STAMP): $(WEB_SOURCES)
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build
	@touch $@

# Without Node.js (>= 20.19) and npm the web table is not built: `make run` serves the gRPC-Web API without it,
# and the browser tests skip, saying why.
web-if-node:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory web || \
	  echo "make: the web table did not build (see above; it needs Node.js >= 20.19); going on without it" >&2; \
	else echo "make: npm not found: the web table is not built (install Node.js >= 20.19 and npm)" >&2; fi

$(NODE_EXAMPLE)/node_modules/.package-lock.json: $(NODE_EXAMPLE)/package-lock.json
	cd $(NODE_EXAMPLE) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

node-deps-if-node:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory $(NODE_EXAMPLE)/node_modules/.package-lock.json || \
	  echo "make: npm ci failed in $(NODE_EXAMPLE); its test will skip" >&2; fi

## Run every test (unit, integration against real Redis and servers, deploy checks, the browser and Node.js ones).
## Three workers on two cores: much of an integration test is waiting (on a process starting, a socket, a timer),
## and a third worker fills it (a full run took 552-562 s with three against 622-650 s with two, 2026-12-03).
test: $(STAMP) web-if-node node-deps-if-node
	$(BIN)/python -m pytest -q -n 3 --dist loadfile

## The fast tier for a developer's loop, under 2 minutes: rules engines, conformance, wire, layers, renderers. It
## starts no server, browser or process: a test that tries fails (TABLETOP_FAST_TIER, tests/conftest.py).
test-fast: $(STAMP)
	TABLETOP_FAST_TIER=1 $(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not integration and not slow"

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
	rm -rf $(VENV) .pytest_cache $(WEB)/node_modules $(WEB)/dist $(WEB)/src/gen $(WEB_STAMP) \
	  $(NODE_EXAMPLE)/node_modules $(NODE_EXAMPLE)/gen
