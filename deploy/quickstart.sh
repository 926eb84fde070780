#!/usr/bin/env bash
# The README's first command: install everything, then run every service in the foreground.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install.sh
export ADMIN_API_KEY="${ADMIN_API_KEY:-dev-admin-key}"
echo "== admin API key: ${ADMIN_API_KEY} (set ADMIN_API_KEY to choose another)"
exec pnpm start
