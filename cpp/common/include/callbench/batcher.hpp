// batcher: contract 7's dynamic batcher. A paced round's arrivals (paced.hpp)
// are gathered into calls of up to B (--batch) as a service's batcher gathers
// them (Triton's dynamic_batching, TorchServe's batch_size and max_batch_delay):
// it takes every arrival already due, up to B; with fewer than B it waits until
// B have arrived or the oldest it holds has waited D (--max-delay), then calls
// once. It knows the schedule, not the future: it waits for an arrival only
// while the oldest may still wait, and waits out D when the next comes later, as
// a batcher that cannot see it does. Arrival j takes sample j mod S (S: the
// samples the run's inputs hold for its calls, --calls x B) and its outputs go
// to sample slot j mod S; the call runs at B, the places no arrival took padded
// with the samples they last held (a fixed-shape runtime pays for padding, as in
// a service), or with --gathered at the size it gathered (a model that takes a
// changing batch: TakesGathered). Each arrival keeps contract 6's three times:
// taken (when the batcher turned to it, negative when it was waiting for it),
// started (its call's start, the copying of its samples in included) and ended
// (the call's end, its outputs copied out included).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "callbench/paced.hpp"
#include "callbench/rounds.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// A model whose call takes a changing batch without reloading (contract 7's
// --gathered): call_gathered(in, out, n) makes one call of the first n samples
// of each input's B places into the first n of each output's (1 <= n <= B).
template <class M>
concept TakesGathered = requires(M& model, std::span<const std::byte* const> in,
                                 std::span<std::byte* const> out, std::size_t n) {
  model.call_gathered(in, out, n);
};

// What a kit's batcher refuses beside it: one gatherer, over its own schedule.
inline constexpr std::string_view kOneGatherer =
    "--max-delay takes one caller: the batcher gathers for one";

// One batched paced round's arrivals and what the batcher made of them.
class Batching {
 public:
  using Clock = std::chrono::steady_clock;

  // slots: S, the samples the run's inputs hold for its calls.
  Batching(std::span<const std::int64_t> offsets, std::size_t slots, std::size_t batch,
           std::int64_t max_delay_ns);

  // The sample slots the round fills: min(K, S).
  std::size_t filled() const { return std::min(offsets_.size(), slots_); }

  // The set-up is done: the round starts at start_ns, or kPacedLeadNs from now.
  void begin(std::optional<std::int64_t> start_ns);

  // Serves every arrival; call(slots) makes one call of the arrivals whose
  // sample slots are `slots` (1 to B of them, in arrival order).
  template <class Call>
  void gather(Call&& call) {
    const std::size_t count = offsets_.size();
    std::vector<std::size_t> which;
    which.reserve(batch_);
    Clock::time_point end = start_;
    std::size_t j = 0;
    while (j < count) {
      Clock::time_point now = Clock::now();
      const Clock::time_point first = due(j);
      times_[j] = ns(now - first);
      if (now < first) now = wait_until(first);
      const Clock::time_point deadline = first + max_delay_;
      std::size_t held = j + 1;
      while (held - j < batch_) {
        if (held < count && due(held) <= now) {  // already arrived: taken now
          times_[held] = ns(now - due(held));
        } else if (held < count && due(held) <= deadline) {  // wait for it: the oldest may
          times_[held] = ns(now - due(held));
          now = wait_until(due(held));
        } else {  // none before the oldest has waited D: wait that out, then call
          if (now < deadline) wait_until(deadline);
          break;
        }
        ++held;
      }
      which.clear();
      for (std::size_t i = j; i < held; ++i) which.push_back(i % slots_);
      const Clock::time_point begin = Clock::now();
      call(std::span<const std::size_t>(which));
      end = Clock::now();
      for (std::size_t i = j; i < held; ++i) {
        times_[count + i] = ns(begin - due(i));
        times_[2 * count + i] = ns(end - due(i));
      }
      ++sizes_[held - j - 1];
      j = held;
    }
    end_ = end;
  }

  // The answer's figures (caller_calls: the one gatherer's arrivals) and the times.
  Paced result() const;

 private:
  static std::int64_t ns(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  }
  Clock::time_point due(std::size_t j) const {
    return start_ + std::chrono::nanoseconds(offsets_[j]);
  }

  std::vector<std::int64_t> offsets_;
  std::size_t slots_, batch_;
  std::chrono::nanoseconds max_delay_;
  std::vector<std::int64_t> times_;
  std::vector<std::int64_t> sizes_;  // sizes_[k - 1]: the calls that took k arrivals
  Clock::time_point start_{}, ready_{}, end_{};
};

// The one caller's rounds (Rounds), its paced rounds served by the batcher: each
// call over buffers of B samples of its own, copied in from the run's inputs
// and out to each arrival's sample slot.
template <TensorModel M>
class Batcher final : public Runner {
 public:
  // gathered: each call at the size it gathered (M must be TakesGathered).
  Batcher(M& model, Rounds<M>& rounds, const std::vector<Samples>& inputs, std::int64_t max_calls,
          std::int64_t batch, std::int64_t max_delay_us, bool gathered = false)
      : model_(model),
        rounds_(rounds),
        batch_(static_cast<std::size_t>(batch)),
        slots_(static_cast<std::size_t>(max_calls) * batch_),
        max_delay_ns_(max_delay_us * 1000),
        gathered_(gathered) {
    const Signature& signature = model.signature();
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const std::size_t sample = signature.inputs[k].sample_bytes();
      input_base_.push_back(inputs[k].bytes.data());
      input_sample_.push_back(sample);
      // The call's places start as the first B samples: padding is always a sample.
      call_in_.emplace_back(inputs[k].bytes.data(), inputs[k].bytes.data() + batch_ * sample);
    }
    for (const Tensor& output : signature.outputs) {
      const std::size_t sample = output.sample_bytes();
      output_sample_.push_back(sample);
      call_out_.emplace_back(batch_ * sample);
      served_.emplace_back(slots_ * sample);
      dtypes_.push_back(output.dtype);
    }
    for (const auto& place : call_in_) in_.push_back(place.data());
    for (auto& place : call_out_) out_.push_back(place.data());
  }

  Round round(std::int64_t calls) override {
    paced_last_ = 0;
    return rounds_.round(calls);
  }

  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    return rounds_.latencies(calls);
  }

  Paced paced(std::span<const std::int64_t> offsets,
              std::optional<std::int64_t> start_ns) override {
    Batching batching(offsets, slots_, batch_, max_delay_ns_);
    for (std::size_t o = 0; o < served_.size(); ++o) poison(std::span(served_[o]), dtypes_[o]);
    paced_last_ = batching.filled();
    batching.begin(start_ns);
    batching.gather([this](std::span<const std::size_t> slots) {
      for (std::size_t k = 0; k < call_in_.size(); ++k) {
        const std::size_t size = input_sample_[k];
        for (std::size_t i = 0; i < slots.size(); ++i) {
          std::memcpy(call_in_[k].data() + i * size, input_base_[k] + slots[i] * size, size);
        }
      }
      const std::span<const std::byte* const> in(in_);
      const std::span<std::byte* const> out(out_);
      if constexpr (TakesGathered<M>) {
        if (gathered_) {
          model_.call_gathered(in, out, slots.size());
        } else {
          model_.call(in, out);
        }
      } else {
        model_.call(in, out);
      }
      clobber_memory();
      for (std::size_t o = 0; o < call_out_.size(); ++o) {
        const std::size_t size = output_sample_[o];
        for (std::size_t i = 0; i < slots.size(); ++i) {
          std::memcpy(served_[o].data() + slots[i] * size, call_out_[o].data() + i * size, size);
        }
      }
    });
    return batching.result();
  }

  std::vector<std::span<const std::byte>> last_outputs() const override {
    if (paced_last_ == 0) return rounds_.last_outputs();
    std::vector<std::span<const std::byte>> all;
    for (std::size_t o = 0; o < served_.size(); ++o) {
      all.emplace_back(served_[o].data(), paced_last_ * output_sample_[o]);
    }
    return all;
  }

 private:
  M& model_;
  Rounds<M>& rounds_;
  std::size_t batch_, slots_;
  std::int64_t max_delay_ns_;
  bool gathered_;
  std::vector<const std::byte*> input_base_;  // each input's samples as read
  std::vector<std::size_t> input_sample_, output_sample_;  // each tensor's bytes a sample
  std::vector<Bytes> call_in_, call_out_;  // the call's B places of each tensor
  std::vector<Bytes> served_;  // each output's S sample slots
  std::vector<Dtype> dtypes_;
  std::vector<const std::byte*> in_;
  std::vector<std::byte*> out_;
  std::size_t paced_last_ = 0;  // the sample slots the last paced round filled (0: a round's)
};

}  // namespace callbench
