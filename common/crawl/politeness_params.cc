// Politeness defaults and checks (politeness_params.h).
#include "common/crawl/politeness_params.h"

#include <string>

namespace crawl {

Status NormalizePoliteness(v1::CrawlParams* p) {
  const bool scoped = p->include_hosts_size() > 0;
  if (p->max_connections_per_address() == 0)
    p->set_max_connections_per_address(kDefaultConnectionsPerAddress);
  if (p->max_connections_per_address() > kMaxConnectionsPerAddress)
    return Status::InvalidArgument("max_connections_per_address above " +
                                   std::to_string(kMaxConnectionsPerAddress));
  if (!p->has_address_gap_ms()) p->set_address_gap_ms(scoped ? 0 : kDefaultAddressGapMs);
  if (p->address_gap_ms() > kMaxAddressGapMs)
    return Status::InvalidArgument("address_gap_ms above " + std::to_string(kMaxAddressGapMs));
  if (p->pacing().empty()) p->set_pacing(std::string(scoped ? kPacingFixed : kPacingAdaptive));
  if (p->pacing() != kPacingAdaptive && p->pacing() != kPacingFixed)
    return Status::InvalidArgument("unknown pacing '" + p->pacing() + "' (adaptive or fixed)");
  if (p->pace_factor_percent() == 0) p->set_pace_factor_percent(kDefaultPaceFactorPercent);
  if (p->pace_factor_percent() > kMaxPaceFactorPercent)
    return Status::InvalidArgument("pace_factor_percent above " + std::to_string(kMaxPaceFactorPercent));
  if (!p->has_pace_floor_ms()) p->set_pace_floor_ms(kDefaultPaceFloorMs);
  if (!p->has_pace_ceiling_ms()) p->set_pace_ceiling_ms(kDefaultPaceCeilingMs);
  if (p->pace_ceiling_ms() > kMaxPaceCeilingMs)
    return Status::InvalidArgument("pace_ceiling_ms above " + std::to_string(kMaxPaceCeilingMs));
  if (p->pace_floor_ms() > p->pace_ceiling_ms())
    return Status::InvalidArgument("pace_floor_ms above pace_ceiling_ms");
  return Status::Ok();
}

}  // namespace crawl
