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

#include <iostream>
#include <span>
#include <string_view>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"
#include "callbench/model.hpp"
#include "callbench/options.hpp"
#include "callbench/result.hpp"
#include "callbench/rounds.hpp"
#include "callbench/serve.hpp"

namespace callbench {

// "progress: <stage>" on stderr (the contract's optional progress lines).
void progress(std::string_view stage);

// Writes --outputs (the last round's outputs) and prints the result line.
void finish(std::string_view id, const Options& options, std::span<const float> outputs,
            Result result);

// load(options) returns the driver's model (see model.hpp). Loading, and any
// check that the model answers with the right shape, is timed as load_ns;
// the inputs are read and checked after it, at the model's sample width.
template <class Load>
int driver_main(int argc, const char* const* argv, std::string_view id, Load&& load) {
  return guarded_main(argc, argv, id, [&](const Options& options) {
    const auto inputs_path = options.models / "inputs.f32";
    require_file(inputs_path);

    progress("loading");
    const auto start = Clock::now();
    Model auto model = load(options);
    const std::int64_t load_ns = nanoseconds_since(start);

    // Read after loading: how many floats make a sample is the model's to say.
    const SampleWidths widths = sample_widths_of(model);
    const std::vector<float> inputs = read_inputs(inputs_path, widths.input);
    require_samples(inputs_path, inputs.size() / widths.input, options);

    progress("warm-up");
    Rounds rounds(model, inputs, options.calls, options.batch, widths);
    rounds.warm_up(options.warmup);
    Result result;
    result.rounds = options.serve ? serve(options, rounds, load_ns, std::cin, std::cout)
                                  : run_script(options, rounds);
    result.runtime_version = model.runtime_version();
    result.load_ns = load_ns;
    result.notes = model.notes();
    finish(id, options, rounds.last_outputs(), std::move(result));
  });
}

}  // namespace callbench
