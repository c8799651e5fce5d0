// The fetcher's side of the document worker (worker_client.h).
#include "fetcher/document/worker_client.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "fetcher/document/worker_metrics.h"
#include "fetcher/document/worker_process.h"
#include "fetcher/document/worker_protocol.h"

extern char** environ;

namespace crawl::fetcher {

struct DocumentParser::Worker {
  std::atomic<int> pid{-1};
  int fd = -1;  // our end of the socket, non-blocking
};

namespace {

std::string SignalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

// Why a worker ended, from its wait status.
std::string EndReason(int status, const DocumentParserOptions& options) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (code == kWorkerExitOutOfMemory)
      return "memory limit (" + std::to_string(options.memory_bytes >> 20) + " MiB)";
    if (code == kWorkerExitBadFrame) return "worker refused the request frame";
    return "worker exited with code " + std::to_string(code);
  }
  if (!WIFSIGNALED(status)) return "worker ended";
  const int sig = WTERMSIG(status);
  switch (sig) {
    case SIGXCPU:
      return "CPU limit (SIGXCPU)";
    case SIGSYS:
      return "forbidden system call (SIGSYS, seccomp)";
    case SIGKILL:
      return "killed (SIGKILL: the CPU limit, the kernel's OOM killer or an operator)";
    default:
      return "crashed (" + SignalName(sig) + ")";
  }
}

// Resident set of `pid` in bytes (0 if unknown).
double ResidentBytes(int pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

std::vector<std::string> WorkerArgv(const DocumentParserOptions& options) {
  std::vector<std::string> args = {
      options.executable,
      std::string(kDocumentWorkerArg),
      "--memory-mb=" + std::to_string(std::max<size_t>(1, options.memory_bytes >> 20)),
      "--cpu-s=" + std::to_string(options.cpu_seconds),
      "--seccomp=" + options.seccomp,
      "--max-response-bytes=" + std::to_string(options.max_response_bytes)};
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  return args;
}

// Logs how the first worker is confined, once per process (a warning when
// it runs without its seccomp filter).
void NoteSandbox(const std::string& hello) {
  static std::once_flag once;
  std::call_once(once, [&] {
    const std::string how = hello.substr(std::min(hello.size(), kWorkerHelloPrefix.size()));
    if (how.starts_with("seccomp"))
      spdlog::info("document worker: {}", how);
    else
      spdlog::warn("document worker: {}: documents are parsed without a system call filter", how);
  });
}

}  // namespace

DocumentParser::DocumentParser(DocumentParserOptions options)
    : options_(std::move(options)), spawner_(std::make_unique<WorkerSpawner>()) {
  for (size_t i = 0; i < std::max<size_t>(1, options_.workers); ++i) {
    workers_.push_back(std::make_unique<Worker>());
    free_.push_back(workers_.back().get());
  }
  (void)WorkerMetrics();
}

DocumentParser::~DocumentParser() {
  for (auto& w : workers_) (void)Reap(*w, "");
}

std::vector<int> DocumentParser::WorkerPids() const {
  std::vector<int> pids;
  for (const auto& w : workers_) {
    if (const int pid = w->pid.load(); pid > 0) pids.push_back(pid);
  }
  return pids;
}

DocumentParser::Worker* DocumentParser::Acquire() const {
  std::unique_lock lock(mu_);
  free_cv_.wait(lock, [this] { return !free_.empty(); });
  Worker* w = free_.back();
  free_.pop_back();
  return w;
}

void DocumentParser::Release(Worker* worker) const {
  {
    std::lock_guard lock(mu_);
    free_.push_back(worker);
  }
  free_cv_.notify_one();
}

Status DocumentParser::Spawn(Worker& worker) const {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return Status::IoError(std::string("socketpair: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  const std::vector<std::string> args = WorkerArgv(options_);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = 0;
  spawner_->Run(
      [&] { rc = posix_spawn(&pid, options_.executable.c_str(), &actions, &attr, argv.data(), environ); });
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return Status::IoError("cannot start " + options_.executable + ": " + std::strerror(rc));
  }
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  worker.fd = fds[0];
  worker.pid = pid;
  auto hello = ReadFrameUntil(worker.fd, 4096, std::chrono::steady_clock::now() + options_.timeout);
  v1::DocumentParseResponse response;
  if (!hello.ok() || !response.ParseFromString(*hello) || !response.error().starts_with(kWorkerHelloPrefix)) {
    const std::string why = Reap(worker, "no greeting");
    return Status::Unavailable("document worker did not start: " + why);
  }
  NoteSandbox(response.error());
  return Status::Ok();
}

std::string DocumentParser::Reap(Worker& worker, const std::string& killed_for) const {
  const int pid = worker.pid.exchange(-1);
  if (worker.fd >= 0) close(worker.fd);
  worker.fd = -1;
  if (pid <= 0) return killed_for;
  // A worker that already ended keeps its own reason: look before killing.
  int status = 0;
  rusage usage{};
  pid_t done = wait4(pid, &status, WNOHANG, &usage);
  if (done == 0 && !killed_for.empty()) {
    // Give a worker that closed its end a moment to finish dying.
    for (int i = 0; i < 20 && done == 0; ++i) {
      usleep(1000);
      done = wait4(pid, &status, WNOHANG, &usage);
    }
  }
  const bool ended = done == pid;
  if (!ended) {
    kill(pid, SIGKILL);
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
  }
  WorkerMetrics().cpu_seconds.Increment(static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                                        (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
  return ended ? EndReason(status, options_) : killed_for;
}

Result<v1::ParsedDocument> DocumentParser::ParseOn(Worker& worker, const std::string& request,
                                                   std::string_view url) const {
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  Status sent = WriteFrameUntil(worker.fd, request, deadline);
  Result<std::string> frame = sent.ok() ? ReadFrameUntil(worker.fd, options_.max_response_bytes, deadline)
                                        : Result<std::string>(sent);
  v1::DocumentParseResponse response;
  std::string failure;
  if (!frame.ok()) {
    failure = frame.status().message() == kFrameTimeLimit
                  ? "time limit (" + std::to_string(options_.timeout.count()) + " ms)"
                  : frame.status().message();
  } else if (!response.ParseFromString(*frame)) {
    failure = "bad response frame";
  }
  if (!failure.empty()) {
    const int pid = worker.pid.load();
    const std::string reason = Reap(worker, failure);
    WorkerMetrics().restarts.Increment();
    WorkerMetrics().documents.Add({{"outcome", "failed"}}).Increment();
    spdlog::warn("document worker {} failed on {}: {}; a new worker takes the next document", pid, url,
                 reason);
    return Status::Unavailable("document worker: " + reason);
  }
  WorkerMetrics().rss_bytes.Set(ResidentBytes(worker.pid.load()));
  if (!response.error().empty()) {
    WorkerMetrics().documents.Add({{"outcome", "rejected"}}).Increment();
    return Status::InvalidArgument(response.error());
  }
  WorkerMetrics().documents.Add({{"outcome", "parsed"}}).Increment();
  return std::move(*response.mutable_document());
}

Result<v1::ParsedDocument> DocumentParser::Parse(DocumentType type, std::string_view url,
                                                 std::string_view body) const {
  return ParseNamed(DocumentTypeName(type), url, body);
}

Result<v1::ParsedDocument> DocumentParser::ParseNamed(std::string_view type_name, std::string_view url,
                                                      std::string_view body) const {
  v1::DocumentParseRequest request;
  request.set_type(std::string(type_name));
  request.set_url(std::string(url));
  request.set_body(std::string(body));
  request.set_max_text_bytes(options_.limits.max_text_bytes);
  request.set_max_links(static_cast<uint32_t>(options_.limits.max_links));
  const std::string frame = request.SerializeAsString();
  Worker* worker = Acquire();
  Result<v1::ParsedDocument> result = Status::Internal("unreached");
  if (worker->pid.load() <= 0) {
    if (Status s = Spawn(*worker); !s.ok()) {
      Release(worker);
      WorkerMetrics().documents.Add({{"outcome", "failed"}}).Increment();
      spdlog::warn("document worker for {}: {}", url, s.message());
      return s;
    }
  }
  result = ParseOn(*worker, frame, url);
  Release(worker);
  return result;
}

}  // namespace crawl::fetcher
