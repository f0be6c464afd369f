// serve: the command dialogue of --serve (round K, latencies K, paced FILE [START], end) and the
// standalone script that runs the same commands without it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string_view>
#include <vector>

#include "callbench/options.hpp"
#include "callbench/rounds.hpp"

namespace callbench {

struct Command {
  enum class Kind { round, latencies, paced, end };
  Kind kind = Kind::end;
  std::int64_t calls = 0;  // K, for round and latencies
  std::filesystem::path schedule = {};  // FILE, for paced (contract 6)
  std::optional<std::int64_t> start_ns = {};  // START, for paced: on the monotonic clock
  bool operator==(const Command&) const = default;
};

// How many calls the standalone script's latency pass times.
inline constexpr std::int64_t kStandaloneLatencyCalls = 100'000;

// One line of the dialogue: "round K", "latencies K", "paced FILE [START]" or "end",
// 1 <= K <= max_calls, START an integer of ns.
// Throws UsageError for anything else.
Command parse_command(std::string_view line, std::int64_t max_calls);

// What a standalone run does: round N, --repeats times; latencies min(N, 100000)
// if --latencies is given; end.
std::vector<Command> standalone_script(const Options& options);

// --serve: prints the ready line, then answers each command read from
// `commands` with one JSON line on `answers` (flushed), until "end" or the end
// of input. Returns the rounds in the order run. Writes --latencies on each
// latencies command; the caller writes --outputs and the result line.
std::vector<Round> serve(const Options& options, Runner& runner, std::int64_t load_ns,
                         const Warmup& warmup,
                         std::istream& commands, std::ostream& answers);

// Without --serve: the standalone script, silently (only the result line,
// printed by the caller, goes to stdout).
std::vector<Round> run_script(const Options& options, Runner& runner);

}  // namespace callbench
