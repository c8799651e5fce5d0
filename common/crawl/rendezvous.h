// Host partitioning by rendezvous (highest-random-weight) hashing
// (Thaler & Ravishankar 1998; docs/DESIGN.md §3 step 1). Every URL of a
// host lands on the same queue server, and removing one server moves only
// the hosts it owned.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace crawl {

// Index in `server_ids` of the server that owns `host`; the weight of a
// (server, host) pair is Hash8(server_id + '\n' + host), the highest wins
// (ties, which need equal 64-bit hashes, go to the lower index).
// REQUIRES: !server_ids.empty().
[[nodiscard]] size_t OwnerIndex(const std::vector<std::string>& server_ids, std::string_view host);

}  // namespace crawl
