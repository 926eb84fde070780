#!/usr/bin/env bash
# The README's second command: lint (Biome, biome.jsonc), typecheck the whole tree, then every test
# against the real Postgres, Redis and NATS and the real engines.
set -euo pipefail
cd "$(dirname "$0")/.."
# The lint rules and the format check (biome check).
pnpm lint
pnpm exec tsc -p tsconfig.json
pnpm exec tsc -p services/web/tsconfig.json
pnpm exec jest --runInBand "$@"
