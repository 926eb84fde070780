#!/usr/bin/env bash
# The README's second command: lint (Biome, biome.jsonc), typecheck the whole tree, then every test
# against the real Postgres, Redis and NATS and the real engines.
set -euo pipefail
cd "$(dirname "$0")/.."
# The lint rules; the format check joins (this line becomes `pnpm lint`) in the commit that formats the tree once.
pnpm exec biome lint --error-on-warnings .
pnpm exec tsc -p tsconfig.json
pnpm exec tsc -p services/web/tsconfig.json
pnpm exec jest --runInBand "$@"
