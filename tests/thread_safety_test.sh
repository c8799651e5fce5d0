#!/usr/bin/env bash
# clang's thread-safety analysis catches what GUARDED_BY marks
# (common/base/mutex.h): a guarded member touched without its lock, or a
# REQUIRES function called without it, fails to compile; the locked forms
# compile. Skips (exit 77) without clang++.
#   thread_safety_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?source dir}" && pwd)
cxx=${CLANGXX:-clang++}
if ! command -v "$cxx" > /dev/null; then
  echo "thread_safety: $cxx not found, skipped"
  exit 77
fi
bad=0

# check NAME WANT SNIPPET: compiles the snippet after a class with a guarded
# member; WANT is pass or fail.
check() {
  local name=$1 want=$2 got=pass
  if ! "$cxx" -std=c++20 -fsyntax-only -Wthread-safety -Werror=thread-safety -I "$src" -x c++ - \
      > /dev/null 2>&1 <<SNIPPET
#include "common/base/mutex.h"
class Counter {
 public:
  crawl::Mutex mu_;
  crawl::CondVar cv_;
  int n_ GUARDED_BY(mu_) = 0;
  void BumpLocked() REQUIRES(mu_) { ++n_; }
};
$3
SNIPPET
  then
    got=fail
  fi
  if [ "$got" != "$want" ]; then
    echo "thread_safety: $name: expected to $want, did $got"
    bad=1
  fi
}

check "locked forms" pass '
void Write(Counter& c) { crawl::MutexLock lock(c.mu_); ++c.n_; c.BumpLocked(); }
void Wait(Counter& c) { crawl::MutexLock lock(c.mu_); while (c.n_ == 0) c.cv_.Wait(c.mu_); }
void Relock(Counter& c) { crawl::MutexLock lock(c.mu_); lock.Unlock(); lock.Lock(); ++c.n_; }'
check "unlocked write" fail 'void F(Counter& c) { ++c.n_; }'
check "REQUIRES without the lock" fail 'void F(Counter& c) { c.BumpLocked(); }'
check "write after Unlock" fail 'void F(Counter& c) { crawl::MutexLock lock(c.mu_); lock.Unlock(); ++c.n_; }'

[ "$bad" -eq 0 ] && echo "thread_safety: ok"
exit "$bad"
