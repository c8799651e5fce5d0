# Helpers for the deploy tests (sourced): a container engine that answers,
# the debootstrapped base images, cleanup on any exit.
#
#   docker_up      use the engine at $DOCKER_HOST (or the default socket) if
#                  it answers; otherwise start a private dockerd: no bridge,
#                  no iptables (containers use host networking on loopback),
#                  its socket, exec root and pid file under a temp dir, its
#                  data root $CRAWL_DOCKER_ROOT (default
#                  /var/tmp/crawl-test-docker: kept between runs so the base
#                  image, the image layers and the compiler cache mount are
#                  reused; one private dockerd at a time uses it, by flock).
#                  Stopped by its pid when the test exits.
#   base_images    debian:12 and debian:12-slim, made with debootstrap from
#                  this machine's Debian mirror when absent.
set -euo pipefail
DEPLOY_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEPLOY_TMP=$(mktemp -d "${TMPDIR:-/tmp}/crawl-deploy.XXXXXX")
# The Debian docker.io client: a newer client elsewhere on PATH may insist
# on the buildx plugin for BuildKit builds.
DOCKER=docker
[ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker
_dockerd_pid=""
_deploy_cleanups=()

fail() { echo "FAIL: $*" >&2; exit 1; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }

# on_exit CMD: run CMD (eval'd) when the test exits, last registered first.
on_exit() { _deploy_cleanups+=("$1"); }

_deploy_exit() {
  local rc=$? i
  set +e
  for ((i = ${#_deploy_cleanups[@]} - 1; i >= 0; i--)); do eval "${_deploy_cleanups[i]}"; done
  if [ -n "$_dockerd_pid" ]; then
    kill -TERM "$_dockerd_pid" 2>/dev/null
    for i in $(seq 1 300); do kill -0 "$_dockerd_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$_dockerd_pid" 2>/dev/null; then
      echo "dockerd $_dockerd_pid did not stop in 30 s: killing it" >&2
      kill -KILL "$_dockerd_pid" 2>/dev/null
    fi
    # Its containerd (started by dockerd, under our exec root) goes with it.
    if [ -f "$DEPLOY_TMP/exec/containerd/containerd.pid" ]; then
      kill -TERM "$(cat "$DEPLOY_TMP/exec/containerd/containerd.pid")" 2>/dev/null
    fi
    if [ $rc -ne 0 ]; then echo "== dockerd log (last 20 lines)" >&2; tail -n 20 "$DEPLOY_TMP/dockerd.log" >&2; fi
    rm -f "${CRAWL_DOCKER_ROOT:-/var/tmp/crawl-test-docker}.pid"
    # dockerd leaves its default network namespace mounted in its exec root.
    awk -v d="$DEPLOY_TMP/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r |
      while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
  fi
  if [ $rc -eq 0 ]; then rm -rf "$DEPLOY_TMP"; else echo "(kept $DEPLOY_TMP)" >&2; fi
  exit $rc
}
trap _deploy_exit EXIT
trap 'exit 130' INT TERM

docker_up() {
  if $DOCKER info >/dev/null 2>&1; then
    log "using the container engine at ${DOCKER_HOST:-the default socket}"
    return 0
  fi
  command -v dockerd >/dev/null || fail "no dockerd: install docker.io (deploy/install-deps.sh --deploy)"
  local root=${CRAWL_DOCKER_ROOT:-/var/tmp/crawl-test-docker}
  mkdir -p "$root"
  exec 9>"$root.lock"
  if ! flock -n 9; then
    log "waiting for another test's private dockerd on $root"
    flock 9
  fi
  # A private dockerd an earlier run left behind (it was killed before its
  # cleanup) still uses this data root: stop it first, by its recorded pid.
  local stale
  stale=$(cat "$root.pid" 2>/dev/null || true)
  if [ -n "$stale" ] && tr '\0' ' ' < "/proc/$stale/cmdline" 2>/dev/null | grep -q -- "dockerd .*--data-root $root "; then
    log "stopping dockerd $stale left by an earlier run on $root"
    kill -TERM "$stale" 2>/dev/null || true
    local i
    for i in $(seq 1 300); do kill -0 "$stale" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$stale" 2>/dev/null || true
  fi
  export DOCKER_HOST="unix://$DEPLOY_TMP/docker.sock"
  # 8>&- 9>&-: dockerd must not hold the tests' locks (it would outlive a killed test).
  dockerd --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
    --data-root "$root" --exec-root "$DEPLOY_TMP/exec" -H "$DOCKER_HOST" \
    --pidfile "$DEPLOY_TMP/dockerd.pid" > "$DEPLOY_TMP/dockerd.log" 2>&1 8>&- 9>&- &
  _dockerd_pid=$!
  echo "$_dockerd_pid" > "$root.pid"
  local i
  for i in $(seq 1 300); do
    $DOCKER info >/dev/null 2>&1 && { log "private dockerd $_dockerd_pid up (data root $root)"; return 0; }
    kill -0 "$_dockerd_pid" 2>/dev/null || fail "dockerd exited: $(tail -n 5 "$DEPLOY_TMP/dockerd.log")"
    sleep 0.1
  done
  fail "dockerd did not answer in 30 s: $(tail -n 5 "$DEPLOY_TMP/dockerd.log")"
}

base_images() {
  if $DOCKER image inspect debian:12 >/dev/null 2>&1 && $DOCKER image inspect debian:12-slim >/dev/null 2>&1; then
    return 0
  fi
  command -v debootstrap >/dev/null || fail "no debootstrap: install it (deploy/install-deps.sh --deploy)"
  # This machine's mirror (the first URIs/deb line of its apt sources).
  local mirror
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -n -E 's/^URIs: *([^ ]+).*/\1/p; s/^deb +(\[[^]]*\] +)?([^ ]+) .*/\2/p' | grep -v security | head -n 1) || true
  mirror=${mirror:-http://deb.debian.org/debian}
  local rootfs="$DEPLOY_TMP/rootfs"
  log "making debian:12 with debootstrap from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$DEPLOY_TMP/debootstrap.log" 2>&1 ||
    fail "debootstrap failed: $(tail -n 5 "$DEPLOY_TMP/debootstrap.log")"
  # The same suites as this machine (updates and security), when it lists them.
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/debian.sources"
    rm -f "$rootfs/etc/apt/sources.list"
  fi
  # As Debian's own images: no documentation, no recommends, no apt caches.
  cat > "$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
  echo 'APT::Install-Recommends "false";' > "$rootfs/etc/apt/apt.conf.d/90norecommends"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/man/* \
    "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
  find "$rootfs/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true
  tar -C "$rootfs" -c . | $DOCKER import - debian:12 >/dev/null
  $DOCKER tag debian:12 debian:12-slim
  rm -rf "$rootfs"
  log "base images debian:12, debian:12-slim: $($DOCKER image inspect -f '{{.Size}}' debian:12 | numfmt --to=iec)"
}
