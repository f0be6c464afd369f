#include "callbench/driver_main.hpp"

#include <exception>
#include <iostream>

#include "callbench/output_files.hpp"

namespace callbench {

int guarded_main(int argc, const char* const* argv, const std::string& id,
                 const std::function<void(const Options&)>& body) {
  bool debug = false;
  try {
    const Options options = parse_options(argc, argv);
    debug = options.debug;
    body(options);
    return 0;
  } catch (const UsageError& e) {
    std::cerr << id << ": usage: " << first_line(e.what()) << std::endl;
    return 2;
  } catch (const DataError& e) {
    std::cerr << id << ": error: " << first_line(e.what()) << std::endl;
    return 1;
  } catch (const std::exception& e) {
    // Library errors that escaped a driver's own mapping: full text only
    // with --debug, the contract's single line always last.
    if (debug) std::cerr << e.what() << "\n";
    std::cerr << id << ": error: " << first_line(e.what()) << std::endl;
    return 1;
  }
}

void finish_run(const DriverInfo& info, const Options& options, const std::vector<float>& outputs,
                const Timings& timings, RunResult result) {
  if (options.outputs) write_floats(*options.outputs, outputs);
  if (options.latencies) write_int64s(*options.latencies, timings.latency_ns);
  std::cout << report_json(info, options, result) << std::endl;
}

}  // namespace callbench
