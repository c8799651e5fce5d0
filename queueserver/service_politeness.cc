// The queue server's address slot rpcs (service.h; the table is
// queueserver/politeness/address_slots.h, docs/ARCHITECTURE.md "Politeness
// per address and pacing").
#include <spdlog/spdlog.h>

#include "common/base/metrics.h"
#include "queueserver/service.h"

namespace crawl::queueserver {

namespace {

struct AddressSlotMetrics {
  prometheus::Gauge& open =
      metrics::GaugeFamily("crawl_queueserver_address_slots_open",
                           "Connection slots held now on the addresses this server owns")
          .Add({});
  prometheus::Gauge& refused =
      metrics::GaugeFamily("crawl_queueserver_address_slot_refusals",
                           "Slot requests refused because their address was full (current crawl)")
          .Add({});
  prometheus::Counter& requests =
      metrics::CounterFamily("crawl_queueserver_address_slot_requests_total", "AddressSlots calls answered")
          .Add({});
};

AddressSlotMetrics& SlotMetrics() {
  static AddressSlotMetrics* m = new AddressSlotMetrics();
  return *m;
}

}  // namespace

void QueueServerServiceImpl::ExportAddressSlotMetrics() { (void)SlotMetrics(); }

bool QueueServerServiceImpl::SlotLimitsFor(uint64_t crawl_id, AddressSlotTable::Limits* limits) {
  MutexLock lock(mu_);
  CrawlShard* shard = crawl_id == 0 ? nullptr : ShardFor(crawl_id);
  if (!shard) return false;
  const v1::CrawlParams& p = shard->crawl().params();
  limits->max_per_address = p.max_connections_per_address() == 0 ? 4 : p.max_connections_per_address();
  limits->gap_ms = p.address_gap_ms();
  // One crawl's slots at a time: a newer crawl starts them afresh (the
  // older one's fetchers have moved on; their slots would only block).
  if (crawl_id > address_slots_crawl_) {
    address_slots_.Clear();
    address_slots_crawl_ = crawl_id;
  }
  return crawl_id == address_slots_crawl_;
}

grpc::Status QueueServerServiceImpl::AddressSlots(grpc::ServerContext* ctx,
                                                  const v1::AddressSlotsRequest* req,
                                                  v1::AddressSlotsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/AddressSlots"); !denied.ok()) return denied;
  if (std::string bad = AddressSlotTable::CheckRequest(*req); !bad.empty())
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "address slots: " + bad);
  AddressSlotTable::Limits limits;
  if (!SlotLimitsFor(req->crawl_id(), &limits)) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  address_slots_.Apply(*req, limits, clock_->NowUnixMs(), resp);
  AddressSlotMetrics& m = SlotMetrics();
  m.open.Set(static_cast<double>(address_slots_.open()));
  m.refused.Set(static_cast<double>(address_slots_.refused()));
  m.requests.Increment();
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::AddressStatus(grpc::ServerContext* ctx,
                                                   const v1::AddressStatusRequest* req,
                                                   v1::AddressStatusResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/AddressStatus"); !denied.ok()) return denied;
  if (req->addresses_size() > 1000)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "at most 1000 addresses per status request");
  AddressSlotTable::Limits limits;
  uint64_t crawl_id = req->crawl_id();
  if (crawl_id == 0) {
    MutexLock lock(mu_);
    if (CrawlShard* shard = ShardFor(0)) crawl_id = shard->crawl_id();
  }
  if (!SlotLimitsFor(crawl_id, &limits)) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  address_slots_.Status(*req, limits, clock_->NowUnixMs(), resp);
  return grpc::Status::OK;
}

}  // namespace crawl::queueserver
