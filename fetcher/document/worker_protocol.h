// The document worker's wire format (fetcher/document/worker_process.h): frames
// of a 4-byte little-endian length followed by that many bytes of a
// serialized protobuf (v1::DocumentParseRequest from the fetcher,
// v1::DocumentParseResponse from the worker), over the worker's stdin and
// stdout (one AF_UNIX stream socket).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::fetcher {

// The largest request frame (a document body and its envelope).
inline constexpr size_t kMaxDocumentRequestFrame = size_t{512} << 20;

// Writes `payload` as one frame on `fd` (blocking). An error if the peer is
// gone (never SIGPIPE: sockets are written with MSG_NOSIGNAL, other fds with
// write(2), for which the caller must ignore SIGPIPE).
[[nodiscard]] Status WriteFrame(int fd, std::string_view payload);

// Reads one frame of at most `max_bytes` from `fd` (blocking). nullopt at a
// clean end of stream before the frame; an error for a frame cut short or
// over max_bytes.
[[nodiscard]] Result<std::optional<std::string>> ReadFrame(int fd, size_t max_bytes);

// As WriteFrame / ReadFrame on a non-blocking socket, giving up at
// `deadline` (Status code kUnavailable, message "time limit") .
[[nodiscard]] Status WriteFrameUntil(int fd, std::string_view payload,
                                     std::chrono::steady_clock::time_point deadline);
[[nodiscard]] Result<std::string> ReadFrameUntil(int fd, size_t max_bytes,
                                                 std::chrono::steady_clock::time_point deadline);

// The message a timed-out ReadFrameUntil / WriteFrameUntil returns.
inline constexpr std::string_view kFrameTimeLimit = "time limit";

}  // namespace crawl::fetcher
