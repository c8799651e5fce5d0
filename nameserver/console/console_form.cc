#include "nameserver/console/console_form.h"

#include "common/net/admin_http.h"

namespace crawl::nameserver {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

// The value of parameter `name` (e.g. boundary=, name=) in a header value.
std::string Param(std::string_view header, std::string_view name) {
  size_t at = 0;
  while ((at = header.find(name, at)) != std::string_view::npos) {
    const bool starts = at == 0 || header[at - 1] == ';' || header[at - 1] == ' ';
    if (starts && at + name.size() < header.size() && header[at + name.size()] == '=') {
      std::string_view v = header.substr(at + name.size() + 1);
      if (!v.empty() && v.front() == '"') {
        v.remove_prefix(1);
        return std::string(v.substr(0, v.find('"')));
      }
      return std::string(v.substr(0, v.find(';')));
    }
    at += name.size();
  }
  return "";
}

Result<FormFields> ParseMultipart(std::string_view content_type, std::string_view body) {
  const std::string boundary = Param(content_type, "boundary");
  if (boundary.empty() || boundary.size() > 70)
    return Status::InvalidArgument("multipart form without a boundary");
  const std::string delimiter = "--" + boundary;
  FormFields fields;
  size_t at = body.find(delimiter);
  if (at == std::string_view::npos) return Status::InvalidArgument("multipart form without parts");
  for (;;) {
    at += delimiter.size();
    if (body.substr(at, 2) == "--") return fields;  // the closing delimiter
    if (body.substr(at, 2) != "\r\n") return Status::InvalidArgument("malformed multipart delimiter");
    at += 2;
    const size_t head_end = body.find("\r\n\r\n", at);
    if (head_end == std::string_view::npos) return Status::InvalidArgument("multipart part without headers");
    const std::string_view head = body.substr(at, head_end - at);
    const size_t next = body.find("\r\n" + delimiter, head_end + 4);
    if (next == std::string_view::npos) return Status::InvalidArgument("multipart part not closed");
    std::string name;
    size_t line = 0;
    while (line < head.size()) {
      size_t end = head.find("\r\n", line);
      if (end == std::string_view::npos) end = head.size();
      const std::string_view h = head.substr(line, end - line);
      if (StartsWithNoCase(h, "content-disposition:")) name = Param(h, "name");
      line = end + 2;
    }
    if (name.empty()) return Status::InvalidArgument("multipart part without a name");
    fields.emplace(name, std::string(body.substr(head_end + 4, next - head_end - 4)));
    at = next + 2;
  }
}

}  // namespace

Result<FormFields> ParseFormBody(std::string_view content_type, std::string_view body) {
  if (StartsWithNoCase(content_type, "application/x-www-form-urlencoded")) return ParseForm(body);
  if (StartsWithNoCase(content_type, "multipart/form-data")) return ParseMultipart(content_type, body);
  return Status::InvalidArgument("forms must be sent url-encoded or as multipart/form-data");
}

}  // namespace crawl::nameserver
