#!/usr/bin/env bash
# The README's first command: install everything, then run every service in the foreground.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install.sh
# The services run on Node 24, as in CI and the images: deploy/install.sh installed it when the machine's is older.
node_dir="$(bash deploy/install.sh --node-dir)"
if [ -x "$node_dir/bin/node" ]; then export PATH="$node_dir/bin:$PATH"; fi
echo "== node $(node -v)"
export ADMIN_API_KEY="${ADMIN_API_KEY:-dev-admin-key}"
echo "== admin API key: ${ADMIN_API_KEY} (set ADMIN_API_KEY to choose another)"
exec pnpm start
