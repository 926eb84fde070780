#!/usr/bin/env bash
# Builds production-only installs of services: compiles the TypeScript once (tsconfig.build.json),
# lays the compiled tree beside the workspace's package files, then `pnpm deploy --prod` per
# service into OUT/<service> (its package, compiled JavaScript, its workspace libs and production
# dependencies only). Run by the Dockerfile's build stage and by tests/operations.
#   deploy/build.sh OUT [service...]      (default: every service)
#   PNPM_FLAGS=--prefer-offline deploy/build.sh …  (packages from the local store; the registry only
#   for metadata a fresh machine has not cached: pnpm deploy resolves version ranges again, and
#   deploy/lock-check.cjs then fails the build if any package is not at the lockfile's version)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"; shift
services=("$@")
[ ${#services[@]} -gt 0 ] || services=(gateway account recordings pipeline series ask events web mcp)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/node_modules/.bin/tsc" -p "$root/tsconfig.build.json" --outDir "$work"
cd "$root"
cp package.json pnpm-lock.yaml pnpm-workspace.yaml "$work/"
for pkg in libs/* services/* tests; do [ -f "$pkg/package.json" ] && mkdir -p "$work/$pkg" && cp "$pkg/package.json" "$work/$pkg/"; done
# The compiled tree's package files: a `main` written `src/index.ts` (the SDK's, for tsx) becomes
# `src/index` (the compiled .js), and `files` (the SDK's published bundle, `dist`) goes: pnpm deploy
# copies only what `files` lists, and a service runs the compiled sources, not the bundle.
node -e '
const fs = require("fs");
for (const f of process.argv.slice(1)) {
  const p = JSON.parse(fs.readFileSync(f, "utf8"));
  if (typeof p.main === "string") p.main = p.main.replace(/\.ts$/, "");
  delete p.files;
  fs.writeFileSync(f, JSON.stringify(p, null, 2) + "\n");
}' "$work"/libs/*/package.json
# Files a service reads at run time beside its code (the app's stylesheet and browser script).
for dir in services/*/assets services/*/client; do if [ -d "$dir" ]; then cp -r "$dir" "$work/$dir"; fi; done
cd "$work"
for s in "${services[@]}"; do
  rm -rf "${out:?}/$s"
  # pnpm prints its errors on stdout: kept, and shown only when the deploy fails.
  pnpm deploy --filter "@mm/$s" --prod ${PNPM_FLAGS:-} "$out/$s" >"$work/deploy-$s.log" 2>&1 || { cat "$work/deploy-$s.log" >&2; exit 1; }
  # pnpm 9's deploy resolves ranges again: anything not at the lockfile's version fails the build.
  node "$root/deploy/lock-check.cjs" "$root/pnpm-lock.yaml" "$out/$s"
done
