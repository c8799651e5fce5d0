// fault_proxy: a TCP relay that degrades its link on command
// (fault_proxy.h explains the toxics and the control protocol), for the
// fault-injection harness of tests/faults/.
//
//   fault_proxy --listen 127.0.0.1:0 --upstream 127.0.0.1:7001
//       --port-file proxy.port --control-port-file ctl.port [--latency-ms 50]
//
// The port files are written (whole, by rename) once both ports listen.
// Prints "listening on ADDR:PORT control 127.0.0.1:PORT"; SIGINT or SIGTERM
// end it, printing its counters.
#include <CLI/CLI.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>

#include "tests/faults/fault_proxy.h"

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

// Writes `port` to `path` through a temporary file and a rename, so a
// script polling for the file never reads half of it. False on failure.
bool WritePortFile(const std::string& path, uint16_t port) {
  if (path.empty()) return true;
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << port << "\n";
    if (!out.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("fault_proxy: relay TCP and degrade the link on command");
  std::string listen, upstream, port_file, control_port_file;
  uint16_t control_port = 0;
  crawl::faults::FaultProxyOptions options;
  app.add_option("--listen", listen, "ADDR:PORT to accept on (port 0: any)")->required();
  app.add_option("--upstream", upstream, "ADDR:PORT to relay to")->required();
  app.add_option("--port-file", port_file, "write the relay's bound port here");
  app.add_option("--control-port", control_port, "control port on 127.0.0.1 (0: any)");
  app.add_option("--control-port-file", control_port_file, "write the control port here");
  app.add_option("--latency-ms", options.initial.latency_ms, "initial one-way latency")
      ->check(CLI::Range(0u, 3'600'000u));
  app.add_option("--jitter-ms", options.initial.jitter_ms, "initial jitter (+-)")
      ->check(CLI::Range(0u, 3'600'000u));
  app.add_option("--bandwidth", options.initial.bandwidth, "initial bytes/s per direction (0: no limit)");
  app.add_option("--max-queued-bytes", options.max_queued_bytes, "bytes waiting per direction at most")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  CLI11_PARSE(app, argc, argv);

  if (!SplitHostPort(listen, &options.listen_address, &options.listen_port) ||
      !SplitHostPort(upstream, &options.upstream_address, &options.upstream_port) ||
      options.upstream_port == 0) {
    std::fprintf(stderr, "fault_proxy: --listen and --upstream take ADDR:PORT\n");
    return 2;
  }
  options.control_port = control_port;
  crawl::faults::FaultProxy proxy(options);
  if (const crawl::Status status = proxy.Start(); !status.ok()) {
    std::fprintf(stderr, "fault_proxy: %s\n", status.ToString().c_str());
    return 1;
  }
  if (!WritePortFile(port_file, proxy.port()) || !WritePortFile(control_port_file, proxy.control_port())) {
    std::fprintf(stderr, "fault_proxy: cannot write the port files\n");
    return 1;
  }
  boost::asio::signal_set signals(proxy.io_context(), SIGINT, SIGTERM);
  signals.async_wait([&proxy](const boost::system::error_code&, int) { proxy.Stop(); });
  std::printf("listening on %s:%u control 127.0.0.1:%u\n", options.listen_address.c_str(),
              static_cast<unsigned>(proxy.port()), static_cast<unsigned>(proxy.control_port()));
  std::fflush(stdout);
  proxy.Run();
  std::printf("%s\n", crawl::faults::FormatStats(proxy.stats(), proxy.toxics()).c_str());
  return 0;
}
