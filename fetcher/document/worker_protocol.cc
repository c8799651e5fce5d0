// Frames of the document worker's pipe (worker_protocol.h).
#include "fetcher/document/worker_protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace crawl::fetcher {
namespace {

std::string LengthPrefix(size_t n) {
  std::string prefix(4, '\0');
  for (int i = 0; i < 4; ++i) prefix[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  return prefix;
}

size_t PrefixLength(const unsigned char* p) {
  return size_t{p[0]} | size_t{p[1]} << 8 | size_t{p[2]} << 16 | size_t{p[3]} << 24;
}

// One send(2) or write(2): sockets with MSG_NOSIGNAL.
ssize_t WriteSome(int fd, const char* data, size_t n) {
  ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
  if (w < 0 && errno == ENOTSOCK) w = write(fd, data, n);
  return w;
}

// Waits until `fd` is ready for `events` or `deadline` passes. False on
// timeout.
bool WaitReady(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int r = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count() + 1, 60'000)));
    if (r > 0) return true;  // ready, or an error/hang-up the next call reports
    if (r < 0 && errno != EINTR) return true;
  }
}

// Writes all of `data`; with a deadline, waits for room with poll.
Status WriteAll(int fd, std::string_view data, const std::chrono::steady_clock::time_point* deadline) {
  while (!data.empty()) {
    const ssize_t w = WriteSome(fd, data.data(), data.size());
    if (w > 0) {
      data.remove_prefix(static_cast<size_t>(w));
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && deadline != nullptr) {
      if (!WaitReady(fd, POLLOUT, *deadline)) return Status::Unavailable(std::string(kFrameTimeLimit));
      continue;
    }
    return Status::IoError(std::string("write: ") + (w < 0 ? std::strerror(errno) : "nothing written"));
  }
  return Status::Ok();
}

// Reads exactly n bytes into out. 0: done; 1: end of stream before any
// byte; an error otherwise.
Result<int> ReadAll(int fd, char* out, size_t n, const std::chrono::steady_clock::time_point* deadline) {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = read(fd, out + got, n - got);
    if (r > 0) {
      got += static_cast<size_t>(r);
      continue;
    }
    if (r == 0) {
      if (got == 0) return 1;
      return Status::IoError("end of stream inside a frame");
    }
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) && deadline != nullptr) {
      if (!WaitReady(fd, POLLIN, *deadline)) return Status::Unavailable(std::string(kFrameTimeLimit));
      continue;
    }
    return Status::IoError(std::string("read: ") + std::strerror(errno));
  }
  return 0;
}

Status WriteFrameImpl(int fd, std::string_view payload,
                      const std::chrono::steady_clock::time_point* deadline) {
  if (payload.size() > 0xffffffffu) return Status::InvalidArgument("frame over 4 GiB");
  if (auto s = WriteAll(fd, LengthPrefix(payload.size()), deadline); !s.ok()) return s;
  return WriteAll(fd, payload, deadline);
}

Result<std::optional<std::string>> ReadFrameImpl(int fd, size_t max_bytes,
                                                 const std::chrono::steady_clock::time_point* deadline) {
  unsigned char prefix[4];
  auto head = ReadAll(fd, reinterpret_cast<char*>(prefix), 4, deadline);
  if (!head.ok()) return head.status();
  if (*head == 1) return std::optional<std::string>();
  const size_t n = PrefixLength(prefix);
  if (n > max_bytes)
    return Status::InvalidArgument("frame of " + std::to_string(n) + " bytes, over the limit of " +
                                   std::to_string(max_bytes));
  std::string payload(n, '\0');
  auto body = ReadAll(fd, payload.data(), n, deadline);
  if (!body.ok()) return body.status();
  if (*body == 1 && n > 0) return Status::IoError("end of stream inside a frame");
  return std::optional<std::string>(std::move(payload));
}

}  // namespace

Status WriteFrame(int fd, std::string_view payload) { return WriteFrameImpl(fd, payload, nullptr); }

Result<std::optional<std::string>> ReadFrame(int fd, size_t max_bytes) {
  return ReadFrameImpl(fd, max_bytes, nullptr);
}

Status WriteFrameUntil(int fd, std::string_view payload, std::chrono::steady_clock::time_point deadline) {
  return WriteFrameImpl(fd, payload, &deadline);
}

Result<std::string> ReadFrameUntil(int fd, size_t max_bytes, std::chrono::steady_clock::time_point deadline) {
  auto frame = ReadFrameImpl(fd, max_bytes, &deadline);
  if (!frame.ok()) return frame.status();
  if (!frame->has_value()) return Status::IoError("end of stream");
  return std::move(**frame);
}

}  // namespace crawl::fetcher
