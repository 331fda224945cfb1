# The contract's commands (docs/contract.md). Run from the repository root.
SHELL := /bin/bash
export NODE_NO_WARNINGS := 1

# The Node LTS the project runs on is pinned in .node-version. When the machine's node is older than
# package.json's engines, dev/ensure-node.sh fetches the pinned one from the npm registry into .dev-tools/node
# (once), and this folder goes first on PATH, so npm, npx and every process below run on it. A machine with a
# supported node has no such folder and uses its own (docs/decisions/fresh-machine.md).
export PATH := $(CURDIR)/.dev-tools/node/bin:$(PATH)

# Runs a command with Postgres and Redis there: DATABASE_URL / REDIS_URL when set, else the servers at their
# default addresses, else ones of this checkout's own, stopped after the command (dev/services/).
WITH_SERVICES := node --import tsx dev/services/with-services.ts

# The folders whose imports the layering rule checks (make lint, test/layering.test.ts).
LAYERS := api cli core db web worker dev bench test

.PHONY: node deps test-browser build test dev migrate bench typecheck lint db redis-cluster

# Installs the dependencies when node_modules is missing or older than package-lock.json (every npm install
# rewrites node_modules/.package-lock.json), so a fresh clone or a pulled lock file needs no separate step.
node_modules/.package-lock.json: package-lock.json | node
	npm ci --no-audit --no-fund
	@touch $@

node:
	@sh dev/ensure-node.sh

deps: node node_modules/.package-lock.json

# Debian's Chromium and an emoji font for the browser tests: found, installed (as root) or asked for.
test-browser:
	@sh dev/ensure-test-browser.sh

build: deps
	npx tsx web/build.ts

typecheck: deps
	npx tsc --noEmit

# Biome: formatting and lint rules over the whole tree (biome.json); warnings fail too, so the tree stays clean.
# Then the layering (.dependency-cruiser.cjs): an import against it, or a cycle, fails.
lint: deps
	npx biome ci --error-on-warnings .
	npx depcruise --config .dependency-cruiser.cjs $(LAYERS)

# The whole suite: lint and types, then both vitest projects (vitest.config.ts): unit, and stack (integration
# against real Postgres + Redis, Chromium end-to-end). No build step here: the stack project's global setup
# builds dist/ once, so a test run (and CI) builds the bundle once and tests the code as it is. The global setups find
# or start Postgres and Redis as WITH_SERVICES does (the tests' own data apart).
test: deps test-browser lint typecheck
	npx vitest run

# Creates the database named in DATABASE_URL when it does not exist yet.
db: deps
	$(WITH_SERVICES) npx tsx cli/create-database.ts

# Creates the database when missing, then applies migrations.
migrate: deps
	$(WITH_SERVICES) sh -c 'npx tsx cli/create-database.ts && npx tsx cli/migrate.ts'

# node itself, not npx: make hands Ctrl-C / SIGTERM straight to the runner, which stops everything it started
# (Postgres and Redis last, when it started them). It creates and migrates the database itself.
dev: deps
	node --import tsx dev/run.ts

# make bench, or make bench ONLY=stream
bench: build
	$(WITH_SERVICES) npx tsx --expose-gc bench/run.ts $(ONLY)

# A throwaway three-node Redis Cluster on free loopback ports; prints its REDIS_CLUSTER_NODES. Ctrl-C removes it.
redis-cluster: node
	node --import tsx dev/redis-cluster.ts
