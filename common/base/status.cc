#include "common/base/status.h"

namespace crawl {

std::string Status::ToString() const {
  const char* name = "ok";
  switch (code_) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      name = "invalid argument";
      break;
    case StatusCode::kNotFound:
      name = "not found";
      break;
    case StatusCode::kAlreadyExists:
      name = "already exists";
      break;
    case StatusCode::kUnavailable:
      name = "unavailable";
      break;
    case StatusCode::kIoError:
      name = "i/o error";
      break;
    case StatusCode::kResourceExhausted:
      name = "resource exhausted";
      break;
    case StatusCode::kFailedPrecondition:
      name = "failed precondition";
      break;
    case StatusCode::kInternal:
      name = "internal error";
      break;
  }
  return std::string(name) + ": " + message_;
}

}  // namespace crawl
