#include "common/security/process_security.h"

#include <spdlog/spdlog.h>

namespace crawl::security {
namespace {

void WarnInsecure(std::string_view process) {
  spdlog::warn(
      "{} runs with --insecure: no TLS and no authentication; anyone who reaches its ports can "
      "read and change the crawl",
      process);
}

}  // namespace

Status SetUpTransport(std::string_view process, const TlsFlags& flags, bool need_identity,
                      const std::vector<std::pair<std::string, std::string>>& listens) {
  if (auto s = ValidateTlsFlags(flags, need_identity); !s.ok()) return s;
  for (const auto& [flag, address] : listens) {
    if (auto s = CheckListenAllowed(flags, flag, address); !s.ok()) return s;
  }
  auto transport = Transport::Create(flags);
  if (!transport.ok()) return transport.status();
  InstallTransport(*transport);
  if (flags.insecure) WarnInsecure(process);
  if (flags.tls()) spdlog::info("{}: mutual TLS with CA {}", process, flags.ca);
  return Status::Ok();
}

SignalHooks ProcessSignalHooks(std::string_view process, const TlsFlags& flags,
                               std::function<void()> on_reload) {
  SignalHooks hooks;
  hooks.on_reload = std::move(on_reload);
  if (flags.insecure) hooks.on_tick = [name = std::string(process)] { WarnInsecure(name); };
  return hooks;
}

}  // namespace crawl::security
