#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/serve.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using Kind = Command::Kind;
using testing::TempDir;

TEST(ParseCommand, ReadsTheThreeCommands) {
  EXPECT_EQ(parse_command("round 10", 10), (Command{Kind::round, 10}));
  EXPECT_EQ(parse_command("latencies 1", 10), (Command{Kind::latencies, 1}));
  EXPECT_EQ(parse_command("end", 10), (Command{Kind::end, 0}));
  EXPECT_EQ(parse_command("paced /tmp/s.i64", 10), (Command{Kind::paced, 0, "/tmp/s.i64"}));
  EXPECT_EQ(parse_command("paced /tmp/s.i64 123", 10),
            (Command{Kind::paced, 0, "/tmp/s.i64", 123}));
  EXPECT_EQ(parse_command("  round\t7 \r", 10), (Command{Kind::round, 7}));  // blanks, CRLF
}

TEST(ParseCommand, UnknownCommandsAreUsageErrors) {
  for (const char* line : {"", "  ", "run 5", "round", "round 5 6", "end now", "ROUND 5",
                           "latencies", "round five", "round 5x", "round 1.5", "paced",
                           "paced /tmp/s.i64 soon", "paced /tmp/s.i64 -5", "paced a 1 2"}) {
    EXPECT_THROW(parse_command(line, 10), UsageError) << "'" << line << "'";
  }
}

TEST(ParseCommand, CallsOutOfRangeAreUsageErrors) {
  EXPECT_THROW(parse_command("round 0", 10), UsageError);
  EXPECT_THROW(parse_command("round -1", 10), UsageError);
  EXPECT_THROW(parse_command("round 11", 10), UsageError);
  EXPECT_THROW(parse_command("latencies 11", 10), UsageError);
  EXPECT_THROW(parse_command("round 99999999999999999999", 10), UsageError);
  try {
    parse_command("round 11", 10);
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("1 <= K <= 10"), std::string::npos) << e.what();
  }
}

TEST(StandaloneScript, RoundsThenCappedLatenciesThenEnd) {
  Options o;
  o.calls = 200'000;
  o.repeats = 2;
  EXPECT_EQ(standalone_script(o),
            (std::vector<Command>{{Kind::round, 200'000}, {Kind::round, 200'000}, {Kind::end, 0}}));
  o.latencies = "l.i64";
  EXPECT_EQ(standalone_script(o), (std::vector<Command>{{Kind::round, 200'000},
                                                        {Kind::round, 200'000},
                                                        {Kind::latencies, 100'000},
                                                        {Kind::end, 0}}));
  o.calls = 20;
  o.repeats = 1;
  EXPECT_EQ(standalone_script(o), (std::vector<Command>{{Kind::round, 20},
                                                        {Kind::latencies, 20},
                                                        {Kind::end, 0}}));
}

// A runner that answers with fixed figures and records what it was asked.
class FakeRunner : public Runner {
 public:
  std::vector<std::string> asked;
  Round round(std::int64_t calls) override {
    asked.push_back("round " + std::to_string(calls));
    return {calls, 1000 * calls, 900 * calls, {}, 5'000'000 + calls};
  }
  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    asked.push_back("latencies " + std::to_string(calls));
    std::vector<std::int64_t> ns(static_cast<std::size_t>(calls));
    for (std::size_t i = 0; i < ns.size(); ++i) ns[i] = static_cast<std::int64_t>(i) + 40;
    return ns;
  }
  Paced paced(std::span<const std::int64_t> offsets,
              std::optional<std::int64_t> start_ns) override {
    asked.push_back("paced " + std::to_string(offsets.size()) + " from " +
                    std::to_string(start_ns.value_or(-1)));
    // Each arrival taken 3 ns early, started 7 ns late, ended 7 ns + its offset after it.
    std::vector<std::int64_t> times;
    for (std::size_t j = 0; j < offsets.size(); ++j) times.push_back(-3);
    for (std::size_t j = 0; j < offsets.size(); ++j) times.push_back(7);
    for (const std::int64_t offset : offsets) times.push_back(7 + offset);
    const auto k = static_cast<std::int64_t>(offsets.size());
    return {k, 900, start_ns.value_or(5'000'000), 4'000'000, k, times, {2, 1}};
  }
  std::vector<std::span<const std::byte>> last_outputs() const override { return {}; }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Serve, AnswersEachCommandWithOneLine) {
  TempDir dir;
  Options o;
  o.calls = 100;
  o.latencies = dir / "l.i64";
  FakeRunner runner;
  std::istringstream commands("round 100\nround 50\nlatencies 3\nend\nround 7\n");
  std::ostringstream answers;
  const std::vector<Round> rounds = serve(o, runner, 1234, Warmup{7, 890}, commands, answers);

  EXPECT_EQ(rounds, (std::vector<Round>{{100, 100'000, 90'000, {}, 5'000'100},
                                        {50, 50'000, 45'000, {}, 5'000'050}}));
  EXPECT_EQ(runner.asked, (std::vector<std::string>{"round 100", "round 50", "latencies 3"}));
  EXPECT_EQ(lines_of(answers.str()),
            (std::vector<std::string>{
                R"({"event":"ready","load_ns":1234,"warmup_calls":7,"warmup_ns":890})",
                // The round's start and end on the monotonic clock (contract 4's processes).
                R"({"event":"round","calls":100,"ns":100000,"cpu_ns":90000,)"
                R"("start_ns":5000100,"end_ns":5100100})",
                R"({"event":"round","calls":50,"ns":50000,"cpu_ns":45000,)"
                R"("start_ns":5000050,"end_ns":5050050})",
                R"({"event":"latencies","calls":3})",
            }));  // nothing after end
  const auto bytes = testing::read_raw(dir / "l.i64");
  ASSERT_EQ(bytes.size(), 3 * sizeof(std::int64_t));
  std::int64_t ns[3];
  std::memcpy(ns, bytes.data(), bytes.size());
  EXPECT_EQ(ns[0], 40);
  EXPECT_EQ(ns[2], 42);
}

TEST(Serve, ServesAPacedRoundFromItsScheduleFile) {
  TempDir dir;
  Options o;
  o.calls = 3;
  o.latencies = dir / "l.i64";
  const std::int64_t offsets[3] = {100, 200, 200};
  {
    std::ofstream(dir / "s.i64", std::ios::binary)
        .write(reinterpret_cast<const char*>(offsets), sizeof offsets);
  }
  FakeRunner runner;
  std::istringstream commands("paced " + (dir / "s.i64").string() + " 6000000\nend\n");
  std::ostringstream answers;
  EXPECT_TRUE(serve(o, runner, 0, Warmup{}, commands, answers).empty());  // not a round
  EXPECT_EQ(runner.asked, (std::vector<std::string>{"paced 3 from 6000000"}));
  EXPECT_EQ(lines_of(answers.str()).back(),
            R"({"event":"paced","calls":3,"ns":900,"start_ns":6000000,"end_ns":6000900,)"
            R"("ready_ns":4000000,"slots":3,"callers":2,"caller_calls":[2,1]})");
  // The times, 3 x K: taken, started, ended.
  const auto bytes = testing::read_raw(dir / "l.i64");
  ASSERT_EQ(bytes.size(), 9 * sizeof(std::int64_t));
  std::int64_t ns[9];
  std::memcpy(ns, bytes.data(), bytes.size());
  EXPECT_EQ(ns[0], -3);
  EXPECT_EQ(ns[4], 7);
  EXPECT_EQ(ns[7], 207);
}

TEST(Serve, ABadScheduleIsADataErrorNamingTheFile) {
  TempDir dir;
  const std::int64_t backwards[2] = {5, 3};
  {
    std::ofstream(dir / "s.i64", std::ios::binary)
        .write(reinterpret_cast<const char*>(backwards), sizeof backwards);
  }
  EXPECT_THROW(read_schedule(dir / "s.i64"), DataError);
  EXPECT_THROW(read_schedule(dir / "missing.i64"), DataError);
}

TEST(Serve, EndOfInputEndsLikeEnd) {
  Options o;
  o.calls = 10;
  FakeRunner runner;
  std::istringstream commands("round 10\n");
  std::ostringstream answers;
  EXPECT_EQ(serve(o, runner, 0, Warmup{}, commands, answers).size(), 1u);
  EXPECT_EQ(lines_of(answers.str()).size(), 2u);
}

TEST(Serve, BadCommandIsAUsageErrorAfterTheGoodOnes) {
  Options o;
  o.calls = 10;
  FakeRunner runner;
  std::istringstream commands("round 10\nround 11\nround 10\n");
  std::ostringstream answers;
  EXPECT_THROW(serve(o, runner, 0, Warmup{}, commands, answers), UsageError);
  EXPECT_EQ(runner.asked, (std::vector<std::string>{"round 10"}));

  std::istringstream unknown("jump 3\n");
  EXPECT_THROW(serve(o, runner, 0, Warmup{}, unknown, answers), UsageError);
}

TEST(Serve, LatenciesNeedALatenciesPath) {
  Options o;
  o.calls = 10;
  FakeRunner runner;
  std::istringstream commands("latencies 5\n");
  std::ostringstream answers;
  EXPECT_THROW(serve(o, runner, 0, Warmup{}, commands, answers), UsageError);
  EXPECT_TRUE(runner.asked.empty());
}

TEST(RunScript, RunsTheStandaloneScriptSilently) {
  TempDir dir;
  Options o;
  o.calls = 5;
  o.repeats = 3;
  o.latencies = dir / "l.i64";
  FakeRunner runner;
  const std::vector<Round> rounds = run_script(o, runner);
  EXPECT_EQ(rounds.size(), 3u);
  EXPECT_EQ(runner.asked,
            (std::vector<std::string>{"round 5", "round 5", "round 5", "latencies 5"}));
  EXPECT_EQ(testing::read_raw(dir / "l.i64").size(), 5 * sizeof(std::int64_t));
}

}  // namespace
}  // namespace callbench
