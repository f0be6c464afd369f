// batcher: contract 7's batched paced round, its set-up and its answer.
#include "callbench/batcher.hpp"

namespace callbench {

Batching::Batching(std::span<const std::int64_t> offsets, std::size_t slots, std::size_t batch,
                   std::int64_t max_delay_ns)
    : offsets_(offsets.begin(), offsets.end()),
      slots_(slots),
      batch_(batch),
      max_delay_(max_delay_ns),
      times_(3 * offsets.size(), 0),
      sizes_(batch, 0) {}

void Batching::begin(std::optional<std::int64_t> start_ns) {
  ready_ = Clock::now();
  start_ = start_ns ? Clock::time_point(std::chrono::nanoseconds(*start_ns))
                    : ready_ + std::chrono::nanoseconds(kPacedLeadNs);
  end_ = start_;
}

Paced Batching::result() const {
  const auto count = static_cast<std::int64_t>(offsets_.size());
  return Paced{count,
               ns(end_ - start_),
               ns(start_.time_since_epoch()),
               ns(ready_.time_since_epoch()),
               static_cast<std::int64_t>(filled()),
               times_,
               {count},
               sizes_};
}

}  // namespace callbench
