// Mutex, MutexLock and CondVar: std::mutex and std::condition_variable
// with clang's thread-safety annotations, so the compiler checks what each
// mutex guards (-Wthread-safety in the clang builds; gcc ignores them).
//
// The rule: a member shared between threads is marked GUARDED_BY(mu_) next
// to the Mutex that guards it; code touching it holds a MutexLock on mu_, or
// is a function marked REQUIRES(mu_) that its callers call under the lock.
// A condition is waited for in a loop in the locked scope, not in a lambda
// (the analysis sees a lambda as a function of its own, holding nothing):
//   MutexLock lock(mu_);
//   while (!done_) cv_.Wait(mu_);
// NO_THREAD_SAFETY_ANALYSIS turns the check off for one function; each use
// says why. tests/thread_safety_test.sh shows that the check fails.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

// The attributes (clang.llvm.org/docs/ThreadSafetyAnalysis.html). Abseil,
// which gRPC's headers bring in, defines some of the same names with the
// same meaning: whichever header comes first defines them.
#if defined(__clang__)
#define CRAWL_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define CRAWL_THREAD_ANNOTATION(x)
#endif

#ifndef CAPABILITY
#define CAPABILITY(x) CRAWL_THREAD_ANNOTATION(capability(x))
#endif
#ifndef SCOPED_CAPABILITY
#define SCOPED_CAPABILITY CRAWL_THREAD_ANNOTATION(scoped_lockable)
#endif
#ifndef GUARDED_BY
#define GUARDED_BY(x) CRAWL_THREAD_ANNOTATION(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) CRAWL_THREAD_ANNOTATION(pt_guarded_by(x))
#endif
#ifndef REQUIRES
#define REQUIRES(...) CRAWL_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#endif
#ifndef EXCLUDES
#define EXCLUDES(...) CRAWL_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#endif
#ifndef ACQUIRE
#define ACQUIRE(...) CRAWL_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#endif
#ifndef RELEASE
#define RELEASE(...) CRAWL_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#endif
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS CRAWL_THREAD_ANNOTATION(no_thread_safety_analysis)
#endif

namespace crawl {

class CondVar;

// A std::mutex the analysis knows as a capability.
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds `mu` for its scope. Unlock() and Lock() let go of it and take it
// again within the scope.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() {
    mu_.Unlock();
    held_ = false;
  }
  void Lock() ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

// A std::condition_variable waited on with a held Mutex. Wakeups may be
// spurious: wait in a loop on the condition.
class CondVar {
 public:
  // Lets go of `mu` until notified, then takes it again.
  void Wait(Mutex& mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // As Wait, but no later than `deadline`; false once it has passed.
  template <class Clock, class Duration>
  bool WaitUntil(Mutex& mu, const std::chrono::time_point<Clock, Duration>& deadline) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const std::cv_status status = cv_.wait_until(lock, deadline);
    lock.release();
    return status == std::cv_status::no_timeout;
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace crawl
