// options: the contract's command-line options, parsed once for every C++ driver.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace callbench {

struct Options {
  std::filesystem::path models{"models"};
  std::int64_t calls = 1'000'000;  // N: the most calls a round may take
  std::int64_t warmup = 10'000;  // at most: enough for a JIT; callbench run's default too
  double warmup_time = 2.0;       // seconds, once 5 calls are made (0: no time limit)
  std::int64_t repeats = 3;        // standalone runs only
  std::int64_t batch = 1;
  std::int64_t threads = 1;
  std::int64_t callers = 1;  // contract 4: callers calling the model at once
  // Contract 7: a paced round served by a batcher of up to --batch arrivals a
  // call, the oldest it holds waiting at most this many µs (Triton's
  // max_queue_delay_microseconds).
  std::optional<std::int64_t> max_delay_us;
  // ... each of its calls at the size it gathered, not padded to B (a driver
  // whose model takes a changing batch: batcher.hpp's TakesGathered).
  bool gathered = false;
  std::optional<std::filesystem::path> outputs;
  std::optional<std::filesystem::path> latencies;
  bool serve = false;  // take commands from stdin instead of running --repeats rounds
  bool debug = false;
  bool help = false;  // --help: the entry prints help_line and exits 0, loading nothing
};

// What a driver that runs one caller answers to --callers N > 1 (contract 4).
inline constexpr std::string_view kOneCaller =
    "--callers N > 1 is not supported: this driver runs one caller";

// What --gathered answers without --max-delay, and from a driver whose call
// takes a fixed batch (contract 7).
inline constexpr std::string_view kGatheredAlone =
    "--gathered takes --max-delay: it sizes the batcher's calls";
inline constexpr std::string_view kFixedBatch =
    "--gathered is not supported: this driver's call takes a fixed batch";

// What --help prints, the same in every kit (docs/contract.md, "The contract's words").
std::string help_line(std::string_view id);

// Parses the arguments after the program name ("--calls 10" or "--calls=10").
// Throws UsageError naming the bad option.
Options parse_options(std::span<const std::string_view> args);
Options parse_options(int argc, const char* const* argv);

}  // namespace callbench
