#include "callbench/serve.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "callbench/errors.hpp"
#include "callbench/outputs.hpp"

namespace callbench {
namespace {

constexpr std::string_view kCommands =
    "expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'";

// One answer of the dialogue: a JSON object on one line, flushed.
void answer(std::ostream& answers, const nlohmann::ordered_json& line) {
  answers << line.dump() << std::endl;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The line's words, split on blanks (a trailing \r included).
std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::int64_t parse_calls(std::string_view command, std::string_view text, std::int64_t max_calls) {
  std::int64_t k = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, k);
  if (ec != std::errc() || ptr != end) {
    throw UsageError(std::string(command) + " K needs an integer K, got '" + std::string(text) +
                     "'");
  }
  if (k < 1 || k > max_calls) {
    throw UsageError(std::string(command) + " K needs 1 <= K <= " + std::to_string(max_calls) +
                     " (--calls), got " + std::to_string(k));
  }
  return k;
}

// Runs one command; false once it is "end". answers is null in a standalone run.
bool execute(const Command& command, const Options& options, Runner& runner,
             std::vector<Round>& rounds, std::ostream* answers) {
  switch (command.kind) {
    case Command::Kind::round: {
      const Round round = runner.round(command.calls);
      rounds.push_back(round);
      if (answers) {
        nlohmann::ordered_json line = {{"event", "round"},
                                       {"calls", round.calls},
                                       {"ns", round.ns},
                                       {"cpu_ns", round.cpu_ns},
                                       {"start_ns", round.start_ns},
                                       {"end_ns", round.start_ns + round.ns}};
        if (!round.caller_ns.empty()) {
          line["callers"] = round.caller_ns.size();
          line["caller_ns"] = round.caller_ns;
        }
        answer(*answers, line);
      }
      return true;
    }
    case Command::Kind::latencies: {
      if (!options.latencies) throw UsageError("latencies K needs --latencies PATH");
      write_int64s(*options.latencies, runner.latencies(command.calls));
      if (answers) answer(*answers, {{"event", "latencies"}, {"calls", command.calls}});
      return true;
    }
    case Command::Kind::paced: {
      if (!options.latencies) throw UsageError("paced FILE needs --latencies PATH");
      const Paced paced = runner.paced(read_schedule(command.schedule), command.start_ns);
      write_int64s(*options.latencies, paced.times);
      if (answers) {
        nlohmann::ordered_json line = {{"event", "paced"},
                                       {"calls", paced.calls},
                                       {"ns", paced.ns},
                                       {"start_ns", paced.start_ns},
                                       {"end_ns", paced.start_ns + paced.ns},
                                       {"ready_ns", paced.ready_ns},
                                       {"slots", paced.slots},
                                       {"callers", paced.caller_calls.size()},
                                       {"caller_calls", paced.caller_calls}};
        if (!paced.batch_sizes.empty()) line["batch_sizes"] = paced.batch_sizes;
        answer(*answers, line);
      }
      return true;
    }
    case Command::Kind::end:
      return false;
  }
  return false;
}

}  // namespace

Command parse_command(std::string_view line, std::int64_t max_calls) {
  const std::vector<std::string_view> words = words_of(line);
  if (words.size() == 1 && words[0] == "end") return {Command::Kind::end, 0};
  if (words.size() == 2 && words[0] == "round") {
    return {Command::Kind::round, parse_calls(words[0], words[1], max_calls)};
  }
  if ((words.size() == 2 || words.size() == 3) && words[0] == "paced") {
    Command paced{Command::Kind::paced, 0, words[1]};
    if (words.size() == 3) {
      std::int64_t start = 0;
      const char* const end = words[2].data() + words[2].size();
      const auto [ptr, ec] = std::from_chars(words[2].data(), end, start);
      if (ec != std::errc() || ptr != end || start < 0) {
        throw UsageError("paced FILE START needs START in ns, got '" + std::string(words[2]) + "'");
      }
      paced.start_ns = start;
    }
    return paced;
  }
  if (words.size() == 2 && words[0] == "latencies") {
    return {Command::Kind::latencies, parse_calls(words[0], words[1], max_calls)};
  }
  std::string shown(line.substr(0, 60));
  std::replace_if(shown.begin(), shown.end(), [](char c) { return c < 0x20; }, ' ');
  throw UsageError("unknown command '" + shown + "': " + std::string(kCommands));
}

std::vector<Command> standalone_script(const Options& options) {
  std::vector<Command> script(static_cast<std::size_t>(options.repeats),
                              Command{Command::Kind::round, options.calls});
  if (options.latencies) {
    script.push_back({Command::Kind::latencies, std::min(options.calls, kStandaloneLatencyCalls)});
  }
  script.push_back({Command::Kind::end, 0});
  return script;
}

std::vector<Round> serve(const Options& options, Runner& runner, std::int64_t load_ns,
                         const Warmup& warmup, std::istream& commands, std::ostream& answers) {
  answer(answers, {{"event", "ready"},
                   {"load_ns", load_ns},
                   {"warmup_calls", warmup.calls},
                   {"warmup_ns", warmup.ns}});
  std::vector<Round> rounds;
  std::string line;
  while (std::getline(commands, line)) {
    if (!execute(parse_command(line, options.calls), options, runner, rounds, &answers)) break;
  }
  return rounds;
}

std::vector<Round> run_script(const Options& options, Runner& runner) {
  std::vector<Round> rounds;
  for (const Command& command : standalone_script(options)) {
    if (!execute(command, options, runner, rounds, nullptr)) break;
  }
  return rounds;
}

}  // namespace callbench
