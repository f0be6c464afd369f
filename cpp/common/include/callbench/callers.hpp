// callers: contract 4's N callers calling one loaded TensorModel at once, each a
// std::thread with its own call state (model.caller(), made in that thread), its
// own inputs and its own outputs. The threads start after the load, warm up
// their call state together and wait between rounds; a round releases them
// together, each makes its K calls back to back through the same timed loop as
// one caller (run_tensor_calls), and the round's time runs from the first
// caller's start to the last caller's end. Caller c's call i takes the samples
// of call (c*K + i) mod S (S: the calls the inputs hold), copied into its own
// inputs before the release, outside the timing. A paced round (contract 6,
// paced.hpp) releases them on one schedule: each takes the next arrival, in
// slot j mod M; every caller's inputs hold every slot's samples, and the outputs
// are read back in slot order, each from the caller that served its last arrival.
//
// A caller whose call throws marks the round failed; the round throws
// CallerFailed naming that caller, and the entry ends the process at once
// (driver_main: the other callers may be inside a call, so nothing of theirs is
// joined or destroyed). A run without a failure ends by joining every caller.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/model.hpp"
#include "callbench/options.hpp"
#include "callbench/rounds.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// A caller's call failed: what() is "caller C: <its first line>".
class CallerFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <TakesCallers M>
class Callers final : public Runner {
 public:
  using State = decltype(std::declval<M&>().caller());

  // every: each input's samples, all the file holds (S calls at this batch).
  Callers(M& model, const std::vector<Samples>& every, const Options& options)
      : model_(model),
        every_(every),
        max_calls_(options.calls),
        batch_(static_cast<std::size_t>(options.batch)),
        warmup_(options.warmup),
        warmup_time_(options.warmup_time),
        callers_(static_cast<std::size_t>(options.callers)) {
    const Signature& signature = model.signature();
    held_ = every.front().count / batch_;
    for (const Tensor& input : signature.inputs) input_step_.push_back(batch_ * input.sample_bytes());
    for (const Tensor& output : signature.outputs) {
      output_step_.push_back(batch_ * output.sample_bytes());
      dtypes_.push_back(output.dtype);
    }
    const auto n = static_cast<std::size_t>(max_calls_);
    for (Caller& caller : callers_) {
      for (const std::size_t step : input_step_) caller.inputs.emplace_back(n * step);
      for (const std::size_t step : output_step_) {
        caller.outputs.emplace_back(n * step);
        caller.scratch.emplace_back(step);
      }
      for (const auto& input : caller.inputs) caller.steps.input_base.push_back(input.data());
      for (auto& output : caller.outputs) caller.steps.output_base.push_back(output.data());
      caller.steps.input_step = input_step_;
      caller.steps.output_step = output_step_;
    }
  }

  Callers(const Callers&) = delete;
  Callers& operator=(const Callers&) = delete;

  ~Callers() override {
    {
      const std::lock_guard lock(mutex_);
      ending_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  // Each caller's thread started, its call state made and warmed up (the
  // contract's warm-up over its own samples), all at once; the fewest calls any
  // caller made.
  Warmup start() {
    fill_inputs(static_cast<std::size_t>(max_calls_));
    const auto begin = Clock::now();
    for (std::size_t c = 0; c < callers_.size(); ++c) threads_.emplace_back([this, c] { serve(c); });
    run_all(Task::warm_up, static_cast<std::size_t>(max_calls_));
    std::int64_t fewest = callers_.front().warmup_calls;
    for (const Caller& caller : callers_) fewest = std::min(fewest, caller.warmup_calls);
    return Warmup{fewest, nanoseconds_since(begin)};
  }

  Round round(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    fill_inputs(k);
    for (Caller& caller : callers_) {
      for (std::size_t o = 0; o < caller.outputs.size(); ++o) {
        poison(std::span(caller.outputs[o]).first(k * output_step_[o]), dtypes_[o]);
      }
    }
    last_calls_ = k;
    served_by_.clear();
    run_all(Task::round, k);
    Round round{calls, 0, 0, {}};
    auto first = callers_.front().start, last = callers_.front().end;
    for (const Caller& caller : callers_) {
      first = std::min(first, caller.start);
      last = std::max(last, caller.end);
      round.cpu_ns += caller.cpu_ns;
      round.caller_ns.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(caller.end - caller.start).count());
    }
    round.ns = std::chrono::duration_cast<std::chrono::nanoseconds>(last - first).count();
    round.start_ns = monotonic_ns(first);
    return round;
  }

  // Every caller's calls timed one by one, all callers at once: caller after caller.
  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    fill_inputs(k);
    run_all(Task::latencies, k);
    std::vector<std::int64_t> all;
    for (const Caller& caller : callers_) {
      all.insert(all.end(), caller.latencies.begin(), caller.latencies.end());
    }
    return all;
  }

  // Contract 6: every caller serving the arrivals of `offsets`, each taking the next,
  // arrival j in slot j mod M of the caller that takes it.
  Paced paced(std::span<const std::int64_t> offsets,
              std::optional<std::int64_t> start_ns) override {
    Pacing pacing(offsets, callers_.size(), static_cast<std::size_t>(max_calls_));
    const std::size_t k = pacing.filled();
    fill_inputs(k, true);
    for (Caller& caller : callers_) {
      for (std::size_t o = 0; o < caller.outputs.size(); ++o) {
        poison(std::span(caller.outputs[o]).first(k * output_step_[o]), dtypes_[o]);
      }
    }
    pacing_ = &pacing;
    pacing.begin(start_ns);
    run_all(Task::paced, k);
    pacing_ = nullptr;
    served_by_ = pacing.slot_callers();
    last_calls_ = k;
    return pacing.result();
  }

  // Each output's last round, caller after caller, one output after another; after a
  // paced round, each slot's from the caller that served its last arrival, in slot order.
  std::vector<std::span<const std::byte>> last_outputs() const override {
    std::vector<std::span<const std::byte>> all;
    if (last_calls_ == 0) return all;
    joined_.assign(output_step_.size(), {});
    for (std::size_t o = 0; o < output_step_.size(); ++o) {
      const std::size_t bytes = last_calls_ * output_step_[o];
      if (!served_by_.empty()) {
        const std::size_t step = output_step_[o];
        joined_[o].resize(bytes);
        for (std::size_t j = 0; j < last_calls_; ++j) {
          std::memcpy(joined_[o].data() + j * step,
                      callers_[served_by_[j]].outputs[o].data() + j * step, step);
        }
        all.emplace_back(joined_[o].data(), joined_[o].size());
        continue;
      }
      for (const Caller& caller : callers_) {
        joined_[o].insert(joined_[o].end(), caller.outputs[o].begin(),
                          caller.outputs[o].begin() + static_cast<std::ptrdiff_t>(bytes));
      }
      all.emplace_back(joined_[o].data(), joined_[o].size());
    }
    return all;
  }

 private:
  enum class Task { warm_up, round, latencies, paced };

  struct Caller {
    std::vector<Bytes> inputs;   // its K * batch samples of each input
    std::vector<Bytes> outputs;  // its K * batch samples of each output
    std::vector<Bytes> scratch;  // one call of each output, for the latency pass
    TensorSteps steps;
    Clock::time_point start{}, end{};
    std::int64_t cpu_ns = 0;
    std::int64_t warmup_calls = 0;
    std::vector<std::int64_t> latencies;
  };

  // Caller c's call i <- the samples of call (c*calls + i) mod S, for each input; for a
  // paced round's arrivals, every caller's call i <- those of call i mod S.
  void fill_inputs(std::size_t calls, bool arrivals = false) {
    for (std::size_t c = 0; c < callers_.size(); ++c) {
      for (std::size_t t = 0; t < input_step_.size(); ++t) {
        const std::size_t step = input_step_[t];
        for (std::size_t i = 0; i < calls; ++i) {
          const std::size_t from = ((arrivals ? 0 : c * calls) + i) % held_;
          std::memcpy(callers_[c].inputs[t].data() + i * step, every_[t].bytes.data() + from * step,
                      step);
        }
      }
    }
  }

  // Release every caller on `task` and wait for all of them; a failure is thrown here.
  void run_all(Task task, std::size_t calls) {
    std::unique_lock lock(mutex_);
    task_ = task;
    calls_ = calls;
    finished_ = 0;
    ++generation_;
    wake_.notify_all();
    done_.wait(lock, [this] { return finished_ == callers_.size() || !failure_.empty(); });
    if (!failure_.empty()) throw CallerFailed(failure_);
  }

  // Caller c's call state, made in its thread once caller c-1's is: one at a time, in
  // caller order (a runtime's load need not be safe to run at once; a test can choose
  // which caller misbehaves).
  State make_state(std::size_t c) {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return made_ == c; });
    struct Next {  // the next caller's turn, however this one's ends
      Callers& callers;
      ~Next() {
        ++callers.made_;
        callers.wake_.notify_all();
      }
    } next{*this};
    return model_.caller();
  }

  // Caller c's thread: its call state made here, then one task a release until the end.
  void serve(std::size_t c) {
    Caller& caller = callers_[c];
    std::uint64_t seen = 0;
    try {
      State state = make_state(c);
      std::vector<const std::byte*> in(input_step_.size());
      std::vector<std::byte*> out(output_step_.size());
      for (;;) {
        Task task{};
        std::size_t calls = 0;
        {
          std::unique_lock lock(mutex_);
          wake_.wait(lock, [&] { return generation_ != seen || ending_; });
          if (ending_) return;
          seen = generation_;
          task = task_;
          calls = calls_;
        }
        run(task, calls, c, state, caller, in, out);
        {
          const std::lock_guard lock(mutex_);
          ++finished_;
        }
        done_.notify_all();
      }
    } catch (const std::exception& e) {
      fail(c, e.what());
    } catch (...) {
      fail(c, "unknown error");
    }
  }

  void run(Task task, std::size_t calls, std::size_t c, State& state, Caller& caller,
           std::vector<const std::byte*>& in, std::vector<std::byte*>& out) {
    switch (task) {
      case Task::warm_up: {
        const Warmup done = warm_up_calls(warmup_, warmup_time_, static_cast<std::int64_t>(calls),
                                          [&](std::size_t i) {
                                            run_tensor_calls(state, caller.steps, std::span(in),
                                                             std::span(out), i, 1);
                                          });
        caller.warmup_calls = done.calls;
        return;
      }
      case Task::round: {
        const std::int64_t cpu_start = thread_cpu_ns();
        caller.start = Clock::now();
        run_tensor_calls(state, caller.steps, std::span(in), std::span(out), 0, calls);
        caller.end = Clock::now();
        caller.cpu_ns = thread_cpu_ns() - cpu_start;
        return;
      }
      case Task::paced:
        pacing_->serve(c, [&](std::size_t slot) {
          run_tensor_calls(state, caller.steps, std::span(in), std::span(out), slot, 1);
        });
        return;
      case Task::latencies: {
        caller.latencies.assign(calls, 0);
        for (std::size_t o = 0; o < out.size(); ++o) out[o] = caller.scratch[o].data();
        for (std::size_t i = 0; i < calls; ++i) {
          for (std::size_t t = 0; t < in.size(); ++t) {
            in[t] = caller.steps.input_base[t] + i * caller.steps.input_step[t];
          }
          const auto begin = Clock::now();
          state.call(std::span<const std::byte* const>(in), std::span<std::byte* const>(out));
          clobber_memory();
          caller.latencies[i] = nanoseconds_since(begin);
        }
        return;
      }
    }
  }

  void fail(std::size_t c, const char* what) {
    {
      const std::lock_guard lock(mutex_);
      if (failure_.empty()) failure_ = "caller " + std::to_string(c) + ": " + first_line(what);
    }
    done_.notify_all();
  }

  M& model_;
  const std::vector<Samples>& every_;
  std::int64_t max_calls_;
  std::size_t batch_;
  std::int64_t warmup_;
  double warmup_time_;
  std::size_t held_ = 0;  // S: the calls the inputs hold at this batch
  std::vector<std::size_t> input_step_, output_step_;
  std::vector<Dtype> dtypes_;
  std::vector<Caller> callers_;
  std::vector<std::thread> threads_;
  std::size_t last_calls_ = 0;
  std::vector<std::size_t> served_by_;  // after a paced round: each arrival's caller
  Pacing* pacing_ = nullptr;            // the paced round being served
  mutable std::vector<Bytes> joined_;  // last_outputs' copies, alive until they are written

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::uint64_t generation_ = 0;
  Task task_ = Task::warm_up;
  std::size_t calls_ = 0;
  std::size_t finished_ = 0;
  bool ending_ = false;
  std::size_t made_ = 0;  // call states made so far
  std::string failure_;  // the first failing caller's line; empty while none failed
};

}  // namespace callbench
