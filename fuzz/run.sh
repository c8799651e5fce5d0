#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzzer.cc) in build-fuzz/ with clang,
# ASan and UBSan, then runs each for SECONDS (default 60) from a copy of its
# seed corpus in a temporary directory (the repository is never written).
# Exits non-zero if any fuzzer finds a crash, a sanitizer report, a leak, a
# timeout or an out-of-memory; the reproducer is kept and its path printed.
#   fuzz/run.sh [SECONDS] [NAME...]     e.g. fuzz/run.sh 10 url robots
# Environment: CRAWL_JOBS (build parallelism, and fuzzers run at once,
# default 2: each fuzzer is one process on one core), CXX (default
# clang++), FUZZ_KEEP=1 keeps the work directory even on success,
# CRAWL_FUZZ_BUILD_DIR (below).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
# CRAWL_FUZZ_BUILD_DIR: another build directory configured with
# CRAWL_BUILD_FUZZERS=ON (clang) to build and run from.
build=${CRAWL_FUZZ_BUILD_DIR:-$root/build-fuzz}

# ccache keys on paths relative to the checkout, so worktrees share a cache.
export CCACHE_BASEDIR="$root"
# With debug info ccache also hashes the build directory's absolute path
# (hash_dir), so a clone elsewhere missed every object and rebuilt cold;
# the path only matters to a debugger's source lookup.
export CCACHE_NOHASHDIR=1
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
    -DCRAWL_BUILD_FUZZERS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
grep -q '^CRAWL_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" ||
  { echo "fuzz: $build is not configured with CRAWL_BUILD_FUZZERS=ON" >&2; exit 2; }
cmake --build "$build" -j "${CRAWL_JOBS:-2}" --target fuzzers

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$root"/fuzz/*_fuzzer.cc; do
    n=$(basename "$f" _fuzzer.cc)
    names+=("$n")
  done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/crawl-fuzz.XXXXXX")
# fuzz_one NAME: one fuzzer for SECONDS; its report goes to $work/NAME/report
# and its exit status to $work/NAME/rc.
fuzz_one() {
  local name=$1 bin="$build/fuzz/${1}_fuzzer" corpus="$work/$1/corpus" artifacts="$work/$1/artifacts/" max_len rc
  # Per-fuzzer input cap: pages and sitemaps need room, URLs and RPC
  # sequences do not (small inputs also fuzz faster).
  case "$name" in
    url) max_len=4096 ;;
    robots) max_len=65536 ;;
    html|sitemap|feed) max_len=262144 ;;
    *) max_len=65536 ;;
  esac
  {
    echo "fuzz: $name for ${seconds}s (corpus $(ls "$corpus" | wc -l) files, -max_len=$max_len)"
    # -timeout: one input taking longer is a hang; -rss_limit_mb: a memory
    # blow-up; both count as failures, like crashes.
    set +e
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
    UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
      "$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=25 -rss_limit_mb=2560 \
        -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" > "$work/$name/log" 2>&1
    rc=$?
    set -e
    if [ $rc -ne 0 ]; then
      echo "fuzz: $name FAILED (exit $rc); reproducers in $artifacts; log tail:"
      tail -n 60 "$work/$name/log"
    else
      grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$work/$name/log" | tr '\n' ' ' || true
      echo " corpus now $(ls "$corpus" | wc -l) files"
    fi
  } > "$work/$name/report" 2>&1
  echo "$rc" > "$work/$name/rc"
}
for name in "${names[@]}"; do
  [ -x "$build/fuzz/${name}_fuzzer" ] || { echo "fuzz: no fuzzer $build/fuzz/${name}_fuzzer" >&2; exit 2; }
  mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
  if [ -d "$root/fuzz/corpus/$name" ]; then cp -r "$root/fuzz/corpus/$name/." "$work/$name/corpus/"; fi
done
# CRAWL_JOBS fuzzers at a time: 15 one after another took 11 minutes of CI
# with a core idle.
jobs_at_once=${CRAWL_JOBS:-2}
running=0
for name in "${names[@]}"; do
  if [ "$running" -ge "$jobs_at_once" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$name" &
  running=$((running + 1))
done
wait
failed=()
for name in "${names[@]}"; do
  cat "$work/$name/report"
  [ "$(cat "$work/$name/rc" 2> /dev/null || echo 1)" = 0 ] || failed+=("$name")
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (work dir kept: $work)" >&2
  exit 1
fi
[ "${FUZZ_KEEP:-0}" = 1 ] && echo "fuzz: work dir $work" || rm -rf "$work"
echo "fuzz: all ${#names[@]} fuzzers ran ${seconds}s each without a finding"
