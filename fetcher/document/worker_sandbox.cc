// The document worker's confinement (worker_sandbox.h). The system calls
// the filter allows, and why:
//   read (fd 0 only), write (fds 1 and 2 only), sendto (fd 1 only: the
//     frames are sent with MSG_NOSIGNAL): the request and response frames;
//     stderr for abort messages of the C/C++ runtime;
//   mmap, munmap, mremap, brk, madvise, mprotect: the allocator (glibc
//     malloc grows with brk and mmap, trims with madvise/munmap, and
//     realloc of large blocks uses mremap);
//   futex: std::mutex / call_once inside the libraries (uncontended, one
//     thread);
//   exit, exit_group, rt_sigreturn, rt_sigprocmask, getpid, gettid, and
//     tgkill of itself: ending, and abort(3) raising SIGABRT;
//   clock_gettime, gettimeofday, getrandom: time stamps and hash seeds
//     (both are also served by the vDSO or consume no resource);
//   fstat, newfstatat, lseek: stdio looking at its streams.
// openat/open and sysinfo fail with EACCES instead of killing: a library
// that probes for a configuration file or the machine's memory carries on
// without it. Everything else (sockets, clone, execve, ptrace, ...) kills.
#include "fetcher/document/worker_sandbox.h"

#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace crawl::fetcher {
namespace {

void SetLimit(int resource, rlim_t soft, rlim_t hard) {
  rlimit limit{soft, hard};
  setrlimit(resource, &limit);
}

// Closes every descriptor but 0, 1 and 2.
void CloseInheritedFds() {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
#endif
  const long max = sysconf(_SC_OPEN_MAX);
  for (long fd = 3; fd < (max > 0 ? max : 1024); ++fd) close(static_cast<int>(fd));
}

void OnForbiddenCall(int, siginfo_t* info, void*) {
  char line[64];
  const int n = std::snprintf(line, sizeof line, "seccomp: forbidden system call %d\n", info->si_syscall);
  if (n > 0) (void)!write(2, line, static_cast<size_t>(n));
  _exit(159);  // 128 + SIGSYS
}

// Adds the allowed calls; false (with *why) on the first failure.
bool AddRules(scmp_filter_ctx ctx, std::string* why) {
  struct Rule {
    int nr;
    const char* name;
  };
  static const Rule kAllowed[] = {
      {SCMP_SYS(mmap), "mmap"},
      {SCMP_SYS(munmap), "munmap"},
      {SCMP_SYS(mremap), "mremap"},
      {SCMP_SYS(brk), "brk"},
      {SCMP_SYS(madvise), "madvise"},
      {SCMP_SYS(mprotect), "mprotect"},
      {SCMP_SYS(futex), "futex"},
      {SCMP_SYS(exit), "exit"},
      {SCMP_SYS(exit_group), "exit_group"},
      {SCMP_SYS(rt_sigreturn), "rt_sigreturn"},
      {SCMP_SYS(rt_sigprocmask), "rt_sigprocmask"},
      {SCMP_SYS(getpid), "getpid"},
      {SCMP_SYS(gettid), "gettid"},
      {SCMP_SYS(clock_gettime), "clock_gettime"},
      {SCMP_SYS(gettimeofday), "gettimeofday"},
      {SCMP_SYS(getrandom), "getrandom"},
      {SCMP_SYS(fstat), "fstat"},
      {SCMP_SYS(newfstatat), "newfstatat"},
      {SCMP_SYS(lseek), "lseek"},
  };
  for (const Rule& r : kAllowed) {
    if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, r.nr, 0) != 0) {
      *why = std::string("cannot allow ") + r.name;
      return false;
    }
  }
  bool ok = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, 0)) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 1)) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 2)) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 1, SCMP_A0(SCMP_CMP_EQ, 1)) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                             SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(getpid()))) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 0) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 0) == 0 &&
            seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(sysinfo), 0) == 0;
  if (!ok) *why = "cannot add the argument rules";
  return ok;
}

// Installs the filter; "" on success, else why not.
std::string InstallFilter(SeccompMode mode) {
  if (mode == SeccompMode::kTrap) {
    struct sigaction action {};
    action.sa_sigaction = OnForbiddenCall;
    action.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &action, nullptr);
  }
  scmp_filter_ctx ctx = seccomp_init(mode == SeccompMode::kTrap ? SCMP_ACT_TRAP : SCMP_ACT_KILL_PROCESS);
  if (ctx == nullptr) return "seccomp_init failed";
  std::string why;
  if (AddRules(ctx, &why)) {
    const int rc = seccomp_load(ctx);
    if (rc != 0) why = std::string("seccomp_load: ") + std::strerror(-rc);
  }
  seccomp_release(ctx);
  return why;
}

}  // namespace

bool ParseSeccompMode(const std::string& name, SeccompMode* mode) {
  if (name == "kill")
    *mode = SeccompMode::kKill;
  else if (name == "trap")
    *mode = SeccompMode::kTrap;
  else if (name == "off")
    *mode = SeccompMode::kOff;
  else
    return false;
  return true;
}

std::string EnterWorkerSandbox(const WorkerSandboxOptions& options) {
  // Die with the fetcher; if it is already gone, do not outlive it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) _exit(0);
  CloseInheritedFds();
#if defined(CRAWL_SANITIZER_BUILD)
  // AddressSanitizer and ThreadSanitizer reserve terabytes of address
  // space: RLIMIT_AS would stop them at start. The parent's time limit
  // still holds.
  const bool limit_address_space = false;
#else
  const bool limit_address_space = true;
#endif
  if (limit_address_space) SetLimit(RLIMIT_AS, options.memory_bytes, options.memory_bytes);
  SetLimit(RLIMIT_CPU, options.cpu_seconds, options.cpu_seconds + 1);
  SetLimit(RLIMIT_FSIZE, 0, 0);
  SetLimit(RLIMIT_NOFILE, 8, 8);
  SetLimit(RLIMIT_CORE, 0, 0);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return std::string("rlimits only (no_new_privs: ") + std::strerror(errno) + ")";
  if (options.seccomp == SeccompMode::kOff) return "rlimits only (seccomp off)";
#if defined(CRAWL_SANITIZER_BUILD)
  // The sanitizers' runtimes make system calls of their own the filter
  // kills (an ASan worker died of SIGSYS before its first answer).
  return "rlimits only (sanitizer build: no seccomp filter)";
#endif
  const std::string why = InstallFilter(options.seccomp);
  if (!why.empty()) return "rlimits only (" + why + ")";
  return "seccomp filter and rlimits";
}

}  // namespace crawl::fetcher
