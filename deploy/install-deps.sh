#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the demo need.
# Idempotent: packages already present are skipped, so a second run is fast
# and makes no network request at all.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache
  # networking, RPC and storage (DESIGN.md "required stack")
  libboost1.81-dev libboost-url1.81-dev libboost-system1.81-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  librocksdb-dev zlib1g-dev libssl-dev
  # asynchronous DNS with TTLs (fetcher/dns_resolver.h)
  libc-ares-dev
  # companions
  libpsl-dev libidn2-dev publicsuffix libstemmer-dev libcli11-dev libspdlog-dev libfmt-dev
  # the servers' allocator (CMakeLists.txt CRAWL_JEMALLOC)
  libjemalloc-dev
  prometheus-cpp-dev libtomlplusplus-dev
  # tests
  catch2 python3 curl procps
  # search quality test: a real documentation site served on loopback
  nginx python3-doc
  # benchmarks (tests/bench/processing.sh: gumbo is the reference parser)
  libgumbo-dev
  # the status page test loads the page in a real browser
  chromium
  # deploy files test: docker-compose config, YAML
  docker-compose python3-yaml
  # fuzzing (fuzz/run.sh): clang with the libFuzzer and sanitizer runtimes;
  # llvm for llvm-symbolizer (readable sanitizer stack traces)
  clang-14 libclang-rt-14-dev llvm
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
