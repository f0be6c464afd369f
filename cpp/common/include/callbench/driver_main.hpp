// main() of every C++ driver: wires the kit's parts together. options ->
// inputs -> load the model (timed) -> warm-up -> serve or the standalone
// script -> outputs -> result line; errors become the contract's lines and
// exit statuses. A driver only says how to load its model and make one call:
//
//   int main(int argc, char** argv) {
//     return callbench::driver_main(argc, argv, "cpp-x",
//                                   [](const callbench::Options& o) { return XModel(o); });
//   }
#pragma once

#include <cstddef>
#include <iostream>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "callbench/batcher.hpp"
#include "callbench/callers.hpp"
#include "callbench/errors.hpp"
#include "callbench/float_model.hpp"
#include "callbench/inputs.hpp"
#include "callbench/model.hpp"
#include "callbench/options.hpp"
#include "callbench/result.hpp"
#include "callbench/rounds.hpp"
#include "callbench/serve.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// "progress: <stage>" on stderr (the contract's optional progress lines).
void progress(std::string_view stage);

// Writes --outputs (the last round's outputs) and prints the result line.
void finish(std::string_view id, const Options& options,
            const std::vector<std::span<const std::byte>>& outputs, Result result);

// After loading: the rounds, the standalone script or the serve dialogue,
// the outputs and the result line.
template <class AnyModel>
void measure(std::string_view id, const Options& options, AnyModel& model, Runner& rounds,
             std::int64_t load_ns, const Warmup& warmup, Notes more = {}) {
  Result result;
  result.rounds = options.serve ? serve(options, rounds, load_ns, warmup, std::cin, std::cout)
                                : run_script(options, rounds);
  result.runtime_version = model.runtime_version();
  result.load_ns = load_ns;
  result.notes = model.notes();
  result.notes.insert(result.notes.end(), more.begin(), more.end());
  finish(id, options, rounds.last_outputs(), std::move(result));
}

// Ends the process at once after a caller's failure: the line, then _Exit, so that
// nothing the other callers may be using mid-call is destroyed under them.
[[noreturn]] void end_after_failed_caller(std::string_view id, const CallerFailed& failure);

// Contract 4: N callers of a model that takes them (callers.hpp); warm-up, rounds, end.
template <TakesCallers AnyModel>
void measure_callers(std::string_view id, const Options& options, AnyModel& model,
                     const std::vector<Samples>& inputs, std::int64_t load_ns) {
  Callers<AnyModel> callers(model, inputs, options);
  try {
    const Warmup warmup = callers.start();
    const Holding holding = model.holding();
    measure(id, options, model, callers, load_ns, warmup,
            {{"callers", options.callers},
             {"callers_hold", std::string(holding.holds)},
             {"callers_how", holding.how}});
  } catch (const CallerFailed& failure) {
    end_after_failed_caller(id, failure);
  }
}

// load(options) returns the driver's model (see model.hpp), our MLP's float
// Model through its FloatModel adapter: one model path. Loading, and any
// check that the model answers with the right shape, is timed as load_ns;
// the inputs are read and checked after it: which files hold them, and how
// many values make a sample, is the model's signature to say.
template <class Load>
auto load_tensor_model(Load& load, const Options& options) {
  using Loaded = std::invoke_result_t<Load&, const Options&>;
  if constexpr (TensorModel<Loaded>) {
    return load(options);
  } else {
    static_assert(Model<Loaded>, "load returns a Model or a TensorModel (model.hpp)");
    return FloatModel<Loaded>(load, options);
  }
}

template <class Load>
int driver_main(int argc, const char* const* argv, std::string_view id, Load&& load) {
  return guarded_main(argc, argv, id, [&](const Options& options) {
    using Loaded = decltype(load_tensor_model(load, options));
    if (options.callers > 1 && !TakesCallers<Loaded>) throw UsageError(std::string(kOneCaller));
    if (options.max_delay_us && options.callers > 1) throw UsageError(std::string(kOneGatherer));
    if (options.gathered && !TakesGathered<Loaded>) throw UsageError(std::string(kFixedBatch));
    progress("loading");
    const auto start = Clock::now();
    auto model = load_tensor_model(load, options);
    const std::int64_t load_ns = nanoseconds_since(start);

    const Signature& signature = model.signature();
    const std::vector<Samples> inputs = read_inputs(options.models, signature);
    require_samples(options.models / tensor_file(kInputsStem, 0, signature.inputs[0].dtype),
                    inputs.front().count, options);
    progress("warm-up");
    if constexpr (TakesCallers<Loaded>) {
      if (options.callers > 1) return measure_callers(id, options, model, inputs, load_ns);
    }
    Rounds rounds(model, inputs, options.calls, options.batch);
    const Warmup warmup = rounds.warm_up(options.warmup, options.warmup_time);
    if (options.max_delay_us) {  // contract 7: paced rounds through the batcher
      Batcher batcher(model, rounds, inputs, options.calls, options.batch, *options.max_delay_us,
                      options.gathered);
      measure(id, options, model, batcher, load_ns, warmup);
      return;
    }
    measure(id, options, model, rounds, load_ns, warmup);
  });
}

}  // namespace callbench
