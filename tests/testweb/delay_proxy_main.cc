// testweb_delay_proxy: a TCP relay that adds a round trip to a loopback
// server (delay_proxy.h), for benchmarks that need a network's latency
// without netem (tests/bench/h2_throughput.sh --rtt-ms).
//
//   testweb_delay_proxy --listen 127.23.0.1:9443 --upstream 127.23.0.1:8443 --rtt-ms 10
//
// Half the round trip is added in each direction. Prints "listening on
// ADDR:PORT" once it accepts; SIGINT or SIGTERM end it, printing how many
// connections it relayed.
#include <CLI/CLI.hpp>
#include <boost/asio/signal_set.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>

#include "tests/testweb/delay_proxy.h"

namespace {

// "ADDR:PORT" into its parts; false if it is not that shape.
bool SplitHostPort(const std::string& text, std::string* address, uint16_t* port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return false;
  unsigned long value = 0;
  for (size_t i = colon + 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9' || value > 65535) return false;
    value = value * 10 + static_cast<unsigned long>(text[i] - '0');
  }
  if (value > 65535) return false;
  *address = text.substr(0, colon);
  *port = static_cast<uint16_t>(value);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("testweb_delay_proxy: relay TCP with a fixed added round trip");
  std::string listen, upstream;
  double rtt_ms = 0;
  app.add_option("--listen", listen, "ADDR:PORT to accept on (port 0: any)")->required();
  app.add_option("--upstream", upstream, "ADDR:PORT to relay to")->required();
  app.add_option("--rtt-ms", rtt_ms, "round trip to add, half each way")
      ->required()
      ->check(CLI::Range(0.0, 10000.0));
  CLI11_PARSE(app, argc, argv);

  crawl::testweb::DelayProxyOptions options;
  if (!SplitHostPort(listen, &options.listen_address, &options.listen_port) ||
      !SplitHostPort(upstream, &options.upstream_address, &options.upstream_port) ||
      options.upstream_port == 0) {
    std::fprintf(stderr, "testweb_delay_proxy: --listen and --upstream take ADDR:PORT\n");
    return 2;
  }
  options.one_way_delay = std::chrono::microseconds(static_cast<int64_t>(rtt_ms * 500.0));
  crawl::testweb::DelayProxy proxy(options);
  if (const crawl::Status status = proxy.Start(); !status.ok()) {
    std::fprintf(stderr, "testweb_delay_proxy: %s\n", status.ToString().c_str());
    return 1;
  }
  boost::asio::signal_set signals(proxy.io_context(), SIGINT, SIGTERM);
  signals.async_wait([&proxy](const boost::system::error_code&, int) { proxy.Stop(); });
  std::printf("listening on %s:%u\n", options.listen_address.c_str(), static_cast<unsigned>(proxy.port()));
  std::fflush(stdout);
  proxy.Run();
  std::printf("relayed %llu connections\n", static_cast<unsigned long long>(proxy.connections()));
  return 0;
}
