#!/usr/bin/env bash
# The whole test suite from a fresh machine (what CI runs). Stages, in order:
#   deps    install the Debian packages (deploy/install-deps.sh)
#   build   the normal -Werror build in build/ (deploy/build.sh)
#   ctest   every unit and integration test there
#   deploy  tests/deploy/k8s_test.sh (the Kubernetes manifests against
#           the OpenAPI schema; npm registry) and tests/deploy/compose_test.sh:
#           the image built from deploy/docker/Dockerfile (BuildKit, its
#           compiler cache in a cache mount) and the docker-compose cluster
#           crawling for real, on a private dockerd when none answers (needs
#           root and the Debian mirror). 576 s cold (new docker data root:
#           debootstrap 29 s, image 436 s), about 2 min warm
#   asan    build-asan/ (clang, CRAWL_BUILD_FUZZERS=ON: ASan + UBSan, a
#           finding aborts, plus libFuzzer coverage so the fuzzers come
#           from the same build): unit and integration tests, the latter
#           spawning the ASan binaries of that build
#   tsan    build-tsan/ (clang, CRAWL_SANITIZE=thread): every unit test
#           (the worker's gRPC tests included)
#   fuzz    fuzz/run.sh on build-asan/: every libFuzzer target for
#           CRAWL_FUZZ_SECONDS (45) each
# Every sanitizer report of every process (tests and the servers they start)
# goes to a log file under build-*/sanitizer-logs/; a stage with any report
# fails even if the test that caused it passed. Prints the time of each stage
# and exits non-zero naming the first stage that failed.
# Environment: CRAWL_TEST_STAGES (default "deps build ctest deploy asan tsan fuzz",
# what CI runs; e.g. "build ctest" runs a subset, "tsan" the TSan stage). With a warm
# ccache the CI run takes under half an hour on 2 cores; a cold one
# adds the three builds. CRAWL_FUZZ_SECONDS; CRAWL_JOBS
# (build parallelism, 2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CCACHE_BASEDIR="$root"
# With debug info ccache also hashes the build directory's absolute path
# (hash_dir), so a clone elsewhere missed every object and rebuilt cold;
# the path only matters to a debugger's source lookup.
export CCACHE_NOHASHDIR=1
# Four build directories (gcc, clang ASan+fuzz, gcc TSan) outgrow ccache's
# default 5 GB: without room, each stage would evict the others' objects.
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
jobs=${CRAWL_JOBS:-2}
stages=${CRAWL_TEST_STAGES:-deps build ctest deploy asan tsan fuzz}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
supp="$root/deploy/sanitizers"
timings=()

# Everything the unit and integration tests need, but no benchmark.
test_targets=(common_test fetcher_test queueserver_test nameserver_test crawlctl_test testweb_test faults_test
              fetcher queueserver nameserver crawlctl testweb rpc_probe)

# sanitizer_ctest DIR NAME CTEST_ARGS...: runs ctest in DIR with every
# sanitizer writing to DIR/sanitizer-logs/, then fails on any report.
sanitizer_ctest() {
  local dir=$1 name=$2; shift 2
  local logs="$dir/sanitizer-logs"
  rm -rf "$logs" && mkdir -p "$logs"
  # CRAWL_TEST_TIME_SCALE: the integration tests' time limits and leases
  # stretch for servers that run 2-3 times slower instrumented;
  # CRAWL_TEST_RSS_SLACK_MIB: memory bounds allow for ASan's quarantine.
  # abort_on_error: an ASan report kills the process with SIGABRT, so a
  # server that hits one dies visibly; log_path: the report also survives
  # when a test only checks output or kills its children. UBSan halts on the
  # first finding (with -fno-sanitize-recover=undefined it aborts anyway).
  # TSan reports and goes on: dying from a report could hang its runtime
  # (stage_tsan), and the log fails the stage all the same.
  local rc=0
  ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:log_path=$logs/asan:suppressions=$supp/asan.supp" \
  LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$logs/ubsan:suppressions=$supp/ubsan.supp" \
  TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$logs/tsan:suppressions=$supp/tsan.supp" \
  CRAWL_TEST_TIME_SCALE=${CRAWL_TEST_TIME_SCALE:-3} CRAWL_TEST_RSS_SLACK_MIB=${CRAWL_TEST_RSS_SLACK_MIB:-512} \
    ctest --test-dir "$dir" --output-on-failure -j 2 --timeout 1200 "$@" || rc=$?
  if compgen -G "$logs/*" >/dev/null; then
    echo "test.sh: $name: sanitizer reports:" >&2
    for f in "$logs"/*; do echo "== $f" >&2; head -n 80 "$f" >&2; done
    rc=1
  fi
  return $rc
}

stage_deps() { ./deploy/install-deps.sh; }
stage_build() { ./deploy/build.sh; }
stage_ctest() { ctest --test-dir build --output-on-failure -j 2 --timeout 900; }

stage_asan() {
  if [ ! -f build-asan/CMakeCache.txt ]; then
    # clang: with gcc's runtimes a UBSan report ignores log_path (it only
    # aborts), so a server's report would be lost in its log. Warnings are
    # the build stage's business (-Werror there), not this one's.
    # CRAWL_BUILD_FUZZERS implies ASan + UBSan; its coverage instrumentation
    # costs the tests little and saves the fuzz stage a third full build.
    cmake -S . -B build-asan "${generator[@]}" -DCMAKE_CXX_COMPILER="${CXX_SANITIZE:-clang++}" \
      -DCRAWL_BUILD_FUZZERS=ON
  fi
  cmake --build build-asan -j "$jobs" --target "${test_targets[@]}" fuzzers
  sanitizer_ctest build-asan asan -L 'unit|integration'
}

stage_tsan() {
  if [ ! -f build-tsan/CMakeCache.txt ]; then
    # clang, as for asan: gcc 12's TSan runtime could hang for good while
    # aborting on a report (every thread waiting on its thread registry
    # lock). TSan reports and goes on (halt_on_error=0 above); the stage
    # still fails on any report in the logs.
    cmake -S . -B build-tsan "${generator[@]}" -DCMAKE_CXX_COMPILER="${CXX_SANITIZE:-clang++}" \
      -DCRAWL_SANITIZE=thread
  fi
  cmake --build build-tsan -j "$jobs" --target common_test fetcher_test queueserver_test nameserver_test crawlctl_test testweb_test faults_test
  # Debian's gRPC and abseil are not instrumented: tsan.supp ignores what
  # TSan intercepts from inside them (called_from_lib), so the worker's
  # tests over gRPC run here too.
  sanitizer_ctest build-tsan tsan -L unit
}

stage_fuzz() { CRAWL_FUZZ_BUILD_DIR="$root/build-asan" ./fuzz/run.sh "${CRAWL_FUZZ_SECONDS:-45}"; }
stage_deploy() { ./tests/deploy/k8s_test.sh && CRAWL_JOBS=$jobs ./tests/deploy/compose_test.sh; }

report() {
  echo "test.sh: stage times:"
  for t in "${timings[@]}"; do echo "  $t"; done
}

for stage in $stages; do
  echo "=== test.sh: stage $stage ($(date -u +%H:%M:%S))"
  start=$SECONDS
  if ! "stage_$stage"; then
    timings+=("$stage: FAILED after $((SECONDS - start)) s")
    report
    echo "test.sh: FAILED at stage '$stage'" >&2
    exit 1
  fi
  timings+=("$stage: $((SECONDS - start)) s")
done
report
echo "test.sh: all stages passed ($stages)"
