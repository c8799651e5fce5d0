// See h2_exchange.h.
#include "fetcher/http/h2_exchange.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <charconv>

#include "fetcher/http/content_decoding.h"
#include "fetcher/http/http_field_values.h"
#include "fetcher/http/response_fields.h"

namespace crawl::fetcher {

namespace {

constexpr int kMaxInterimResponses = 8;

std::optional<int> ParseStatus(std::string_view value) {
  int status = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), status);
  if (ec != std::errc() || end != value.data() + value.size() || value.size() != 3) return std::nullopt;
  return status;
}

}  // namespace

H2Exchange::H2Exchange(const FetcherOptions& options, std::string scheme, std::string authority,
                       std::string remote)
    : options_(options),
      scheme_(std::move(scheme)),
      authority_(std::move(authority)),
      remote_(std::move(remote)) {}

H2Exchange::~H2Exchange() = default;

Status H2Exchange::Open() {
  // A stream may send what we keep of a body, and a little more (the byte
  // past the cap that proves a cut), without waiting for WINDOW_UPDATE.
  const uint64_t window = std::min<uint64_t>(options_.page_range_bytes + 16 * 1024, 16 << 20);
  auto client = H2Client::Create(*this, options_.max_header_bytes, static_cast<uint32_t>(window));
  if (!client.ok()) return client.status();
  client_ = std::move(*client);
  return Status::Ok();
}

size_t H2Exchange::StreamLimit() const {
  // Until the server's SETTINGS say how many it takes, one stream (more
  // could be refused).
  if (!client_->SettingsReceived()) return 1;
  const size_t ours = std::max<size_t>(options_.h2_streams, 1);
  return std::min<size_t>(ours, client_->RemoteMaxStreams());
}

bool H2Exchange::CanStart() const { return !going_away_ && streams_.size() < StreamLimit(); }

Status H2Exchange::Start(size_t index, const FetchTarget& target, std::string path, FetchResult result,
                         Clock::time_point start) {
  Stream stream;
  stream.index = index;
  stream.target = &target;
  stream.path = std::move(path);
  stream.result = std::move(result);
  stream.start = start;
  stream.total_deadline = start + options_.request_timeout;
  return Submit(std::move(stream));
}

Status H2Exchange::Submit(Stream stream) {
  std::vector<std::pair<std::string, std::string>> fields = {{"user-agent", options_.user_agent}};
  const uint64_t range = RangeBytesOf(options_, *stream.target);
  if (range > 0 && !stream.without_range) {
    fields.emplace_back("range", "bytes=0-" + std::to_string(range - 1));
  }
  fields.emplace_back("accept-encoding", "gzip, deflate");
  // Conditional request (RFC 9110 13.1), as in HTTP/1.1.
  if (SendableValidator(stream.target->if_none_match)) {
    fields.emplace_back("if-none-match", stream.target->if_none_match);
    stream.result.conditional = true;
  }
  if (SendableValidator(stream.target->if_modified_since)) {
    fields.emplace_back("if-modified-since", stream.target->if_modified_since);
    stream.result.conditional = true;
  }
  stream.result.remote_address = remote_;
  auto id = client_->SubmitGet(scheme_, authority_, stream.path, fields);
  if (!id.ok()) return id.status();
  // The first-byte limit runs from the request's submission (it is written
  // at once: nothing else is queued before it).
  stream.first_byte_deadline = Clock::now() + options_.first_byte_timeout;
  streams_.emplace(*id, std::move(stream));
  return Status::Ok();
}

void H2Exchange::Expire(Clock::time_point now) {
  std::vector<int32_t> expired;
  for (auto& [id, stream] : streams_) {
    if (!stream.responded && now >= stream.first_byte_deadline &&
        stream.first_byte_deadline < stream.total_deadline) {
      FailStream(id, stream, kTimeout, "waiting for the response: first-byte timeout exceeded");
      expired.push_back(id);
    } else if (now >= stream.total_deadline) {
      FailStream(id, stream, kTimeout,
                 std::string(stream.responded ? "reading response body" : "waiting for the response") +
                     ": total time limit exceeded");
      expired.push_back(id);
    }
  }
  for (int32_t id : expired) streams_.erase(id);
}

std::optional<H2Exchange::Clock::time_point> H2Exchange::NextDeadline() const {
  std::optional<Clock::time_point> next;
  for (const auto& [id, stream] : streams_) {
    auto deadline = stream.responded ? stream.total_deadline
                                     : std::min(stream.total_deadline, stream.first_byte_deadline);
    if (!next || deadline < *next) next = deadline;
  }
  return next;
}

Status H2Exchange::Receive(std::string_view bytes) { return client_->Receive(bytes); }

Status H2Exchange::TakeOutput(std::string& out) {
  auto again = std::move(again_);
  again_.clear();
  for (Stream& stream : again) {
    if (going_away_) {
      FailStream(0, stream, kConnectError, "the server closed the HTTP/2 connection (GOAWAY)");
      continue;
    }
    if (Status s = Submit(std::move(stream)); !s.ok()) return s;
  }
  return client_->TakeOutput(out);
}

void H2Exchange::FailAll(int status, const std::string& message) {
  for (auto& [id, stream] : streams_) {
    stream.fail_status = status;
    stream.fail_message = message;
    Finish(stream);
  }
  streams_.clear();
  auto again = std::move(again_);
  again_.clear();
  for (Stream& stream : again) FailStream(0, stream, status, message);
}

std::vector<size_t> H2Exchange::TakeRefused() {
  std::vector<size_t> refused = std::move(refused_);
  refused_.clear();
  std::sort(refused.begin(), refused.end());
  return refused;
}

H2Exchange::Stream* H2Exchange::Find(int32_t id) {
  auto it = streams_.find(id);
  return it == streams_.end() ? nullptr : &it->second;
}

bool H2Exchange::OnHeader(int32_t id, std::string_view name, std::string_view value) {
  Stream* stream = Find(id);
  if (stream == nullptr) return true;
  stream->responded = true;
  // The header list's size as RFC 9113 6.5.2 counts it.
  stream->header_bytes += name.size() + value.size() + 32;
  stream->result.wire_bytes += name.size() + value.size();
  if (stream->header_bytes > options_.max_header_bytes) {
    // Refused: nghttp2 resets the stream; the URL is done now.
    stream->fail_status = kProtocolError;
    stream->fail_message =
        "response header larger than " + std::to_string(options_.max_header_bytes) + " bytes";
    Finish(*stream);
    streams_.erase(id);
    return false;
  }
  // Repeated fields are joined as HTTP/1.1 would fold them (RFC 9110 5.3),
  // but X-Robots-Tag fields one per line (an agent prefix scopes one field).
  auto [it, inserted] = stream->fields.try_emplace(std::string(name), value);
  if (!inserted) it->second.append(name == "x-robots-tag" ? "\n" : ", ").append(value);
  return true;
}

void H2Exchange::OnHeadersDone(int32_t id) {
  Stream* stream = Find(id);
  if (stream == nullptr) return;
  auto status = ParseStatus(stream->fields.count(":status") ? stream->fields[":status"] : "");
  // Without :status it is a trailer block (nghttp2 refuses a response
  // without one): its fields join the others, nothing else changes.
  if (!status) return;
  if (*status >= 100 && *status < 200) {
    // Interim responses (RFC 9110 15.2) precede the final one.
    stream->fields.clear();
    stream->header_bytes = 0;
    if (++stream->interim_responses > kMaxInterimResponses) {
      FailStream(id, *stream, kProtocolError,
                 "more than " + std::to_string(kMaxInterimResponses) + " interim responses");
      streams_.erase(id);
    }
    return;
  }
  const auto& fields = stream->fields;
  ReadResponseFields(
      *status,
      [&fields](std::string_view name) -> std::string_view {
        auto it = fields.find(name);
        return it == fields.end() ? std::string_view() : std::string_view(it->second);
      },
      stream->result);
  ReadListFields(
      [&fields](std::string_view name) {
        auto it = fields.find(name);
        return it == fields.end() ? std::vector<std::string_view>()
                                  : std::vector<std::string_view>{it->second};
      },
      stream->result);
}

void H2Exchange::OnData(int32_t id, std::string_view data) {
  Stream* stream = Find(id);
  if (stream == nullptr) return;
  stream->result.wire_bytes += data.size();
  const size_t range = static_cast<size_t>(RangeBytesOf(options_, *stream->target));
  const size_t room = range - std::min<size_t>(stream->raw.size(), range);
  stream->raw.append(data.substr(0, room));
  if (data.size() > room) {
    // One byte past the cap proves the body was longer: keep the cap, stop
    // the stream (the connection carries on, unlike HTTP/1.1). The URL is
    // done now, not when the reset is written.
    stream->result.truncated = true;
    client_->ResetStream(id);
    Complete(*stream);
    streams_.erase(id);
  }
}

void H2Exchange::OnStreamClose(int32_t id, uint32_t error_code) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return;
  Stream& stream = it->second;
  if (error_code != NGHTTP2_NO_ERROR) {
    if (error_code == NGHTTP2_REFUSED_STREAM && !stream.responded) {
      refused_.push_back(stream.index);
      stream.result.wire_bytes = 0;
      streams_.erase(it);
      return;
    }
    stream.fail_status = error_code == NGHTTP2_PROTOCOL_ERROR ? kProtocolError : kConnectError;
    stream.fail_message = std::string("HTTP/2 stream reset: ") + nghttp2_http2_strerror(error_code);
  }
  if (stream.fail_status == 0 && stream.result.status == 0) {
    stream.fail_status = kProtocolError;
    stream.fail_message = "HTTP/2 stream ended without a response";
  }
  if (stream.fail_status != 0) {
    Finish(stream);
  } else {
    Complete(stream);
  }
  streams_.erase(it);
}

void H2Exchange::OnGoAway(int32_t, uint32_t) { going_away_ = true; }

// A whole response (or one cut at the cap): Content-Range, 416, decoding.
void H2Exchange::Complete(Stream& stream) {
  FetchResult& result = stream.result;
  if (result.status == 206) {
    auto it = stream.fields.find("content-range");
    auto total =
        CompleteLength(it == stream.fields.end() ? std::string_view() : std::string_view(it->second));
    if (total && *total > stream.raw.size()) result.truncated = true;
  }
  if (result.status == 416 && RangeBytesOf(options_, *stream.target) > 0 && !stream.without_range) {
    // As HTTP/1.1: asked once more without Range (a fresh result, same start).
    Stream next;
    next.index = stream.index;
    next.target = stream.target;
    next.path = std::move(stream.path);
    next.result.url = std::move(result.url);
    next.result.start_unix_us = result.start_unix_us;
    next.result.wire_bytes = result.wire_bytes;
    next.start = stream.start;
    next.total_deadline = stream.total_deadline;
    next.without_range = true;
    again_.push_back(std::move(next));
    return;
  }
  DecodeBody(std::move(stream.raw), DecodedCapOf(options_, *stream.target), result);
  Finish(stream);
}

void H2Exchange::Finish(Stream& stream) {
  FetchResult& result = stream.result;
  if (stream.fail_status != 0) {
    result.status = stream.fail_status;
    result.error = std::move(stream.fail_message);
    result.body.clear();
  }
  result.fetch_ms = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - stream.start).count());
  finished_[stream.index] = std::move(result);
}

void H2Exchange::FailStream(int32_t id, Stream& stream, int status, std::string message) {
  if (stream.fail_status == 0) {
    stream.fail_status = status;
    stream.fail_message = std::move(message);
  }
  if (id > 0) client_->ResetStream(id);
  // Done now: a server that stopped reading may never let the reset out.
  Finish(stream);
}

}  // namespace crawl::fetcher
