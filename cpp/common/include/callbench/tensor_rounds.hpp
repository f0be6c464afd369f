// tensor_rounds: the rounds of a TensorModel (contract 3), as rounds.hpp's
// are of a float Model: the warm-up, one timed round, the latency pass. Call i
// takes samples [i*B, (i+1)*B) of every input and stores each output's batch
// at its place in that output's buffer; before each round every output is
// filled with what no call gives (NaN, an integer's smallest value).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "callbench/model.hpp"
#include "callbench/rounds.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// Fills `bytes` of values of dtype with NaN (floats) or the smallest value
// (integers); bool has no such value and is left as it is.
void poison(std::span<std::byte> bytes, Dtype dtype);

// Where each call reads and writes: per tensor, its first byte and the bytes one call takes.
struct TensorSteps {
  std::vector<const std::byte*> input_base;
  std::vector<std::size_t> input_step;
  std::vector<std::byte*> output_base;
  std::vector<std::size_t> output_step;
};

template <TensorModel M>
void run_tensor_calls(M& model, const TensorSteps& steps, std::span<const std::byte*> in,
                      std::span<std::byte*> out, std::size_t first, std::size_t calls) {
  for (std::size_t i = first; i < first + calls; ++i) {
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = steps.input_base[k] + i * steps.input_step[k];
    for (std::size_t k = 0; k < out.size(); ++k) {
      out[k] = steps.output_base[k] + i * steps.output_step[k];
    }
    model.call(in, out);
    clobber_memory();
  }
}

template <TensorModel M>
class TensorRounds final : public Runner {
 public:
  // inputs: each input's samples, at least max_calls * batch of them (checked
  // by require_samples), in the signature's order.
  TensorRounds(M& model, const std::vector<Samples>& inputs, std::int64_t max_calls,
               std::int64_t batch)
      : model_(model), max_calls_(max_calls), in_(inputs.size()) {
    const Signature& signature = model.signature();
    const auto b = static_cast<std::size_t>(batch);
    const auto n = static_cast<std::size_t>(max_calls);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      steps_.input_base.push_back(inputs[k].bytes.data());
      steps_.input_step.push_back(b * signature.inputs[k].sample_bytes());
    }
    for (const Tensor& output : signature.outputs) {
      const std::size_t step = b * output.sample_bytes();
      outputs_.emplace_back(n * step);
      scratch_.emplace_back(step);
      steps_.output_step.push_back(step);
      dtypes_.push_back(output.dtype);
    }
    for (auto& output : outputs_) steps_.output_base.push_back(output.data());
    out_.resize(outputs_.size());
  }

  // The warm-up (warm_up_calls): at most `calls` untimed calls, `seconds` once a few are made.
  Warmup warm_up(std::int64_t calls, double seconds = 0) {
    return warm_up_calls(calls, seconds, max_calls_, [this](std::size_t i) {
      run_tensor_calls(model_, steps_, std::span(in_), std::span(out_), i, 1);
    });
  }

  Round round(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      poison(std::span(outputs_[o]).first(k * steps_.output_step[o]), dtypes_[o]);
    }
    last_calls_ = k;
    const std::int64_t cpu_start = thread_cpu_ns();
    const auto start = Clock::now();
    run_tensor_calls(model_, steps_, std::span(in_), std::span(out_), 0, k);
    const std::int64_t ns = nanoseconds_since(start);
    const std::int64_t cpu_ns = thread_cpu_ns() - cpu_start;
    return Round{calls, ns, cpu_ns};
  }

  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    for (std::size_t o = 0; o < scratch_.size(); ++o) out_[o] = scratch_[o].data();
    std::vector<std::int64_t> ns(k);
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t t = 0; t < in_.size(); ++t) {
        in_[t] = steps_.input_base[t] + i * steps_.input_step[t];
      }
      const auto start = Clock::now();
      model_.call(std::span<const std::byte* const>(in_), std::span<std::byte* const>(out_));
      clobber_memory();
      ns[i] = nanoseconds_since(start);
    }
    return ns;
  }

  std::vector<std::span<const std::byte>> last_outputs() const override {
    std::vector<std::span<const std::byte>> all;
    if (last_calls_ == 0) return all;
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      all.emplace_back(outputs_[o].data(), last_calls_ * steps_.output_step[o]);
    }
    return all;
  }

 private:
  M& model_;
  std::int64_t max_calls_;
  TensorSteps steps_;
  std::vector<Dtype> dtypes_;                   // each output's
  std::vector<Bytes> outputs_;   // each output's N * batch samples
  std::vector<Bytes> scratch_;   // each output's one call, for the latency pass
  std::vector<const std::byte*> in_;             // the pointers of the call being made
  std::vector<std::byte*> out_;
  std::size_t last_calls_ = 0;
};

}  // namespace callbench
