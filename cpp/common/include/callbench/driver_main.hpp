// main() of every C++ driver: options, inputs, load, protocol, files, JSON,
// and the contract's error lines and exit codes. A driver only says how to
// load its model and make one call.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/input_data.hpp"
#include "callbench/options.hpp"
#include "callbench/protocol.hpp"
#include "callbench/report.hpp"

namespace callbench {

// Parses the options and runs body; maps UsageError to exit 2, DataError and
// other exceptions to exit 1, each as one line "<id>: usage|error: ..." on stderr.
int guarded_main(int argc, const char* const* argv, const std::string& id,
                 const std::function<void(const Options&)>& body);

// Writes --outputs and --latencies and prints the JSON line.
void finish_run(const DriverInfo& info, const Options& options, const std::vector<float>& outputs,
                const Timings& timings, RunResult result);

// load(options) returns the model: callable as model(const float* in, float* out)
// for one call of options.batch samples, with runtime_version() and notes().
// Loading (and any check that the model answers with the right shape) is
// timed as load_ns; the inputs are read and checked before it.
template <class Load>
int driver_main(int argc, const char* const* argv, const DriverInfo& info, Load&& load) {
  return guarded_main(argc, argv, info.id, [&](const Options& options) {
    const auto inputs_path = options.models / "inputs.f32";
    const std::vector<float> inputs = read_inputs(inputs_path);
    require_samples(inputs_path, inputs.size() / kInputWidth, options);

    const auto start = Clock::now();
    auto model = load(options);
    const auto load_ns = nanoseconds_since(start);

    std::vector<float> outputs(static_cast<std::size_t>(options.calls * options.batch) *
                               kOutputWidth);
    const Timings timings = run_protocol(options, inputs.data(), outputs.data(), model);
    finish_run(info, options, outputs, timings,
               RunResult{model.runtime_version(), timings.repeat_ns, load_ns, model.notes()});
  });
}

}  // namespace callbench
