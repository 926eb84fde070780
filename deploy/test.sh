#!/usr/bin/env bash
# The README's second command: typecheck the whole tree, then every test against the real
# Postgres, Redis and NATS and the real engines.
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm exec tsc -p tsconfig.json
pnpm exec jest --runInBand "$@"
