#include "common/crawl/param_text.h"

#include <google/protobuf/descriptor.h>

#include <charconv>
#include <cstdint>
#include <limits>

namespace crawl {
namespace {

using google::protobuf::FieldDescriptor;

template <typename T>
Result<T> ParseInteger(const std::string& name, const std::string& value) {
  T out{};
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec == std::errc::result_out_of_range)
    return Status::InvalidArgument(name + ": " + value + " is out of range");
  if (ec != std::errc() || ptr != value.data() + value.size() || value.empty())
    return Status::InvalidArgument(name + ": '" + value + "' is not a whole number");
  return out;
}

Result<bool> ParseBool(const std::string& name, const std::string& value) {
  if (value == "true" || value == "1" || value == "yes" || value == "on") return true;
  if (value == "false" || value == "0" || value == "no" || value == "off") return false;
  return Status::InvalidArgument(name + ": '" + value + "' is not true or false");
}

}  // namespace

Status SetParamFromText(v1::CrawlParams* params, const std::string& name, const std::string& value) {
  const auto* field = v1::CrawlParams::descriptor()->FindFieldByName(name);
  if (!field) return Status::InvalidArgument("no crawl parameter '" + name + "'");
  const auto* r = v1::CrawlParams::GetReflection();
  if (field->is_repeated()) {
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_STRING)
      return Status::InvalidArgument(name + ": only lists of strings can be set from text");
    r->ClearField(params, field);
    size_t start = 0;
    while (!value.empty() && start <= value.size()) {
      const size_t comma = value.find(',', start);
      const std::string item =
          value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!item.empty()) r->AddString(params, field, item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return Status::Ok();
  }
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT32: {
      auto v = ParseInteger<uint32_t>(name, value);
      if (!v.ok()) return v.status();
      r->SetUInt32(params, field, *v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      auto v = ParseInteger<uint64_t>(name, value);
      if (!v.ok()) return v.status();
      r->SetUInt64(params, field, *v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      auto v = ParseInteger<int32_t>(name, value);
      if (!v.ok()) return v.status();
      r->SetInt32(params, field, *v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      auto v = ParseInteger<int64_t>(name, value);
      if (!v.ok()) return v.status();
      r->SetInt64(params, field, *v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      auto v = ParseBool(name, value);
      if (!v.ok()) return v.status();
      r->SetBool(params, field, *v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      try {
        size_t used = 0;
        const double d = std::stod(value, &used);
        if (used != value.size()) throw std::invalid_argument(value);
        r->SetDouble(params, field, d);
        return Status::Ok();
      } catch (const std::exception&) {
        return Status::InvalidArgument(name + ": '" + value + "' is not a number");
      }
    }
    case FieldDescriptor::CPPTYPE_STRING:
      r->SetString(params, field, value);
      return Status::Ok();
    default:
      return Status::InvalidArgument(name + ": this parameter cannot be set from text");
  }
}

}  // namespace crawl
