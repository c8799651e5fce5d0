#!/usr/bin/env bash
# Installs the Debian packages the build, the tests, the benchmarks, the
# deployment checks and the running crawler need. This file is the one list
# of them: the image's build stage installs `--build` only and its runtime
# stage `--print runtime` (deploy/docker/Dockerfile).
#
#   install-deps.sh                  everything (what CI runs)
#   install-deps.sh --build --test   only those groups (any combination)
#   install-deps.sh --print GROUP    print a group's packages, one a line
#                                    (GROUP "all" prints every group's)
#
# Groups:
#   build    compile the project (cmake configures with Catch2, so it is here)
#   test     ctest, the sanitizer and fuzz stages (clang), the browser test
#   bench    the benchmarks' extra reference libraries
#   runtime  what the built binaries need to run, and the tools around them
#            (openssl for deploy/certs.sh, curl for health checks); every
#            shared library the binaries link is in here or a dependency
#            of what is (tests/deploy/check_runtime_libs.py, and the image
#            test runs every binary there)
#   deploy   the deploy stage: a container engine, debootstrap for the base
#            image, docker-compose, Prometheus and promtool, systemd-analyze,
#            node and npm for the Kubernetes schema check
#   demo     what deploy/demo.sh runs beyond build and runtime
# Idempotent: packages already present are skipped, so a second run is fast
# and makes no network request at all.
set -euo pipefail

BUILD=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache
  # networking, RPC and storage (docs/DESIGN.md "required stack"); libboost1.81-dev
  # also holds Boost.JSON, used header-only (common/base/json.h)
  libboost1.81-dev libboost-system1.81-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  librocksdb-dev zlib1g-dev libssl-dev
  # asynchronous DNS with TTLs (fetcher/http/dns_resolver.h)
  libc-ares-dev
  # HTTP/2 framing: the fetcher's h2 client, testweb's h2c (fetcher/http/h2_client.h)
  libnghttp2-dev
  # xxHash, header-only: a page's text hash (common/base/hash.h)
  libxxhash-dev
  # companions
  libpsl-dev libidn2-dev publicsuffix libstemmer-dev libcli11-dev libspdlog-dev libfmt-dev
  # text in every language: ICU (WHATWG encodings, normalisation, word breaks),
  # uchardet (encodings of unlabelled pages), CLD2 (language identification)
  libicu-dev libuchardet-dev libcld2-dev
  # documents (fetcher/document/): PDF by poppler, zip containers (Office
  # Open XML, OpenDocument, EPUB) by libzip, their XML and feeds by expat;
  # the document worker's system-call filter by libseccomp
  libpoppler-cpp-dev libzip-dev libexpat1-dev libseccomp-dev
  # the servers' allocator (CMakeLists.txt CRAWL_JEMALLOC)
  libjemalloc-dev
  prometheus-cpp-dev
  # CMakeLists.txt finds Catch2 at configure time
  catch2
)

TEST=(
  python3 curl procps
  # search quality test: a real documentation site served on loopback
  nginx python3-doc
  # site coverage test (crawl_site_coverage_test.sh): a default scoped crawl
  # of rust-doc served by nginx finds every page wget2 finds
  wget2 rust-doc
  # nghttp, an HTTP/2 client to look at testweb's h2c by hand and in the
  # h2 benchmark (tests/bench/h2_throughput.sh)
  nghttp2-client
  # multilingual test web (crawl_multilingual_test.sh): real text in 15
  # languages from Debian's translated docs (1-2 MB each; the installation
  # guide, 18 MB, is the only Greek prose in the archive)
  debian-reference-en debian-reference-de debian-reference-es debian-reference-fr
  debian-reference-id debian-reference-it debian-reference-ja debian-reference-pt
  debian-reference-pt-br debian-reference-zh-cn debian-reference-zh-tw
  debian-faq-ru debian-faq-ko manpages-pl installation-guide-amd64
  # and its console screenshots: Chinese, Japanese and Korean glyphs (1.6 MB)
  fonts-wqy-microhei
  # the status page test loads the page in a real browser
  chromium
  # the console test drives chromium with playwright-core (npm ci in the test)
  nodejs npm
  # deploy files test: docker-compose config, YAML
  docker-compose python3-yaml
  # fuzzing (fuzz/run.sh) and the asan/tsan stages: clang with the libFuzzer
  # and sanitizer runtimes; llvm for llvm-symbolizer (readable stack traces)
  clang-14 libclang-rt-14-dev llvm
  # the format check (tests/format_test.sh) runs clang-format on every file
  clang-format-14
  # crawl_proxy_test.sh: a real forward proxy (BasicAuth, CONNECT) the
  # fetchers crawl through; the test runs its own, so the package's service
  # must not start (see NO_SERVICE_START below)
  tinyproxy
)

BENCH=(
  # tests/bench/processing.sh: gumbo is the reference parser
  libgumbo-dev
  # tests/bench/instructions.sh: callgrind counts instructions (no
  # hardware counters on the shared machine)
  valgrind
)

# The shared objects of the -dev packages above that the binaries link
# (Debian bookworm's names), plus the tools an operator needs beside them.
# The demo (deploy/demo.sh) beyond build and runtime: its closing summary.
DEMO=(python3)

RUNTIME=(
  libgrpc++1.51 libgrpc29 libprotobuf32 librocksdb7.8 libpsl5 libidn2-0 publicsuffix libstemmer0d
  libicu72 libuchardet0 libcld2-0
  libpoppler-cpp0v5 libzip4 libexpat1 libseccomp2
  libjemalloc2 libspdlog1.10 libfmt9 libprometheus-cpp-core1.0
  libssl3 zlib1g libc-ares2 libabsl20220623 libnghttp2-14
  ca-certificates
  # deploy/certs.sh makes the cluster's CA, certificates and tokens
  openssl
  # health checks against /healthz (the image's HEALTHCHECK)
  curl
)

DEPLOY=(
  # tests/deploy/compose_test.sh: its own dockerd, a debootstrapped base
  # image, the compose file run for real
  docker.io debootstrap docker-compose python3-yaml
  # the compose test's Prometheus image and `promtool check metrics`
  prometheus
  # systemd-analyze verify on deploy/systemd/*.service
  systemd
  # tests/deploy/k8s_test.sh: the Kubernetes OpenAPI schema validators
  # (kubernetes-models, from the npm registry)
  nodejs npm
)

# Packages whose command another package may already provide (NodeSource's
# nodejs bundles npm and conflicts with Debian's npm): skipped when the
# command is there.
declare -A COMMAND_OF=([npm]=npm)

# Packages that start a system service on install (Debian's maintainer
# scripts call invoke-rc.d): the tests run their own instance on a port they
# choose, and a system one would listen on a fixed port for nothing.
NO_SERVICE_START=(tinyproxy)

group_list() {  # group_list NAME: that group's packages, one a line
  case "$1" in
    build|test|bench|runtime|deploy|demo) local -n g=${1^^}; printf '%s\n' "${g[@]}" ;;
    all) group_list build; group_list test; group_list bench; group_list runtime; group_list deploy; group_list demo ;;
    *) echo "install-deps: unknown group '$1' (build, test, bench, runtime, deploy, demo, all)" >&2; exit 2 ;;
  esac
}

groups=()
while [ $# -gt 0 ]; do
  case "$1" in
    --print) group_list "${2:?--print needs a group}" | awk '!seen[$0]++'; exit 0 ;;
    --build|--test|--bench|--runtime|--deploy|--demo|--all) groups+=("${1#--}"); shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "install-deps: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || groups=(all)

mapfile -t PACKAGES < <(for g in "${groups[@]}"; do group_list "$g"; done | awk '!seen[$0]++')

missing=()
for pkg in "${PACKAGES[@]}"; do
  if [ -n "${COMMAND_OF[$pkg]:-}" ] && command -v "${COMMAND_OF[$pkg]}" > /dev/null; then continue; fi
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present (${groups[*]})"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# invoke-rc.d asks /usr/sbin/policy-rc.d first: exit 101 means "do not start
# anything". Put in place only for this install (and only when none exists).
policy=/usr/sbin/policy-rc.d
added_policy=0
for pkg in "${missing[@]}"; do
  if [[ " ${NO_SERVICE_START[*]} " == *" $pkg "* ]] && [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" > /dev/null
    $SUDO chmod 755 "$policy"
    added_policy=1
    break
  fi
done
rc=0
$SUDO apt-get install -y --no-install-recommends "${missing[@]}" || rc=$?
[ "$added_policy" = 0 ] || $SUDO rm -f "$policy"
# Without a policy file (one that allowed starts was already there), or on
# a host with systemd, stop what the install may have started anyway.
for pkg in "${NO_SERVICE_START[@]}"; do
  if [[ " ${missing[*]} " == *" $pkg "* ]]; then
    $SUDO systemctl disable --now "$pkg" > /dev/null 2>&1 || true
    $SUDO service "$pkg" stop > /dev/null 2>&1 || true
  fi
done
exit $rc
