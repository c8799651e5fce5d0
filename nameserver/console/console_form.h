// The body of a console form POST: application/x-www-form-urlencoded
// (common/net/admin_http.h ParseForm) or multipart/form-data (RFC 7578), the
// latter for the create form's seed file upload. A file field's value is
// the file's content.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::nameserver {

using FormFields = std::map<std::string, std::string>;

// The fields of `body` sent with `content_type`; InvalidArgument for another
// type or a malformed multipart body.
[[nodiscard]] Result<FormFields> ParseFormBody(std::string_view content_type, std::string_view body);

}  // namespace crawl::nameserver
