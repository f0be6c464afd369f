#include "callbench/driver_main.hpp"

#include <cstdlib>
#include <string>

#include "callbench/outputs.hpp"

namespace callbench {

void progress(std::string_view stage) { std::cerr << "progress: " << stage << std::endl; }

void end_after_failed_caller(std::string_view id, const CallerFailed& failure) {
  std::cout.flush();
  std::cerr << id << ": error: " << failure.what() << std::endl;
  std::_Exit(1);
}

void finish(std::string_view id, const Options& options,
            const std::vector<std::span<const std::byte>>& outputs, Result result) {
  if (options.outputs) write_outputs(*options.outputs, outputs);
  result.driver = std::string(id);
  result.calls = options.calls;
  result.batch = options.batch;
  result.threads = options.threads;
  result.callers = options.callers;
  result.peak_rss_bytes = peak_rss_bytes();
  std::cout << result_json(result) << std::endl;
}

}  // namespace callbench
