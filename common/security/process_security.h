// The security set-up every binary's main() does the same way:
// check the TLS flags, refuse a non-loopback listen address without TLS or
// --insecure, install the transport, and remind the log every hour that a
// process runs without TLS.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/process.h"
#include "common/base/status.h"
#include "common/security/transport.h"

namespace crawl::security {

// `listens`: (flag name, address) of every gRPC address the process serves
// on (empty for a client-only process). `need_identity`: TLS requires this
// process's own certificate. Logs the --insecure warning.
[[nodiscard]] Status SetUpTransport(std::string_view process, const TlsFlags& flags, bool need_identity,
                                    const std::vector<std::pair<std::string, std::string>>& listens);

// Hooks for WaitForShutdownSignal: the hourly --insecure warning (none with
// TLS) and `on_reload` on SIGHUP.
[[nodiscard]] SignalHooks ProcessSignalHooks(std::string_view process, const TlsFlags& flags,
                                             std::function<void()> on_reload = {});

}  // namespace crawl::security
