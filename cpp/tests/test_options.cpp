#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/options.hpp"

namespace callbench {
namespace {

Options parse(std::vector<std::string_view> args) {
  return parse_options(std::span<const std::string_view>(args));
}

TEST(Options, DefaultsFollowTheContract) {
  const Options o = parse({});
  EXPECT_EQ(o.models, "models");
  EXPECT_EQ(o.calls, 1'000'000);
  EXPECT_EQ(o.warmup, 10'000);
  EXPECT_EQ(o.warmup_time, 2.0);
  EXPECT_EQ(o.repeats, 3);
  EXPECT_EQ(o.batch, 1);
  EXPECT_EQ(o.threads, 1);
  EXPECT_FALSE(o.outputs.has_value());
  EXPECT_FALSE(o.latencies.has_value());
  EXPECT_FALSE(o.serve);
  EXPECT_FALSE(o.debug);
}

TEST(Options, ParsesSpaceAndEqualsForms) {
  const Options o = parse({"--models", "m", "--calls=20", "--warmup", "0", "--repeats", "2",
                           "--warmup-time=0.25", "--batch=4", "--threads", "2", "--outputs", "o.f32",
                           "--latencies=l.i64", "--serve", "--debug"});
  EXPECT_EQ(o.models, "m");
  EXPECT_EQ(o.calls, 20);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.warmup_time, 0.25);
  EXPECT_EQ(o.repeats, 2);
  EXPECT_EQ(o.batch, 4);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.outputs, "o.f32");
  EXPECT_EQ(o.latencies, "l.i64");
  EXPECT_TRUE(o.serve);
  EXPECT_TRUE(o.debug);
}

TEST(Options, RejectsOutOfRangeValues) {
  EXPECT_THROW(parse({"--calls", "0"}), UsageError);
  EXPECT_THROW(parse({"--warmup", "-1"}), UsageError);
  EXPECT_THROW(parse({"--repeats", "0"}), UsageError);
  EXPECT_THROW(parse({"--batch", "0"}), UsageError);
  EXPECT_THROW(parse({"--threads", "0"}), UsageError);
}

TEST(Options, RejectsMalformedInput) {
  EXPECT_THROW(parse({"--calls", "12x"}), UsageError);
  EXPECT_THROW(parse({"--calls", ""}), UsageError);
  EXPECT_THROW(parse({"--calls"}), UsageError);
  EXPECT_THROW(parse({"--bogus", "1"}), UsageError);
  EXPECT_THROW(parse({"calls"}), UsageError);
  EXPECT_THROW(parse({"--serve=1"}), UsageError);
  EXPECT_THROW(parse({"--calls", "99999999999999999999"}), UsageError);
}

std::string problem_of(std::vector<std::string_view> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Options, HelpIsAskedNotAnError) {
  const std::vector<std::string_view> args = {"--help"};
  EXPECT_TRUE(parse_options(std::span<const std::string_view>(args)).help);
  EXPECT_EQ(help_line("cpp-x"),
            "usage: cpp-x [--models DIR] [--calls N] [--warmup W] [--warmup-time S] "
            "[--repeats R] [--batch B] [--threads T] [--callers N] [--max-delay US] "
            "[--gathered] [--outputs PATH] [--latencies PATH] [--serve] [--debug]");
}

TEST(Options, GatheredSizesTheBatchersCallsOnly) {
  EXPECT_EQ(problem_of({"--gathered"}), kGatheredAlone);
  const std::vector<std::string_view> args = {"--max-delay", "10", "--gathered"};
  EXPECT_TRUE(parse_options(std::span<const std::string_view>(args)).gathered);
}

// The parser is CLI11; the words are the contract's, as every kit writes them.
TEST(Options, WordsEachProblemTheKitsWay) {
  EXPECT_EQ(problem_of({"--bogus", "1"}), "unknown option '--bogus'");
  EXPECT_EQ(problem_of({"--bogus=1"}), "unknown option '--bogus'");
  EXPECT_EQ(problem_of({"calls"}), "unknown option 'calls'");
  EXPECT_EQ(problem_of({"--hel"}), "unknown option '--hel'");  // no abbreviation
  EXPECT_EQ(problem_of({"--calls"}), "--calls needs a value");
  EXPECT_EQ(problem_of({"--serve=1"}), "--serve takes no value");
  EXPECT_EQ(problem_of({"--warmup", "x"}), "--warmup needs an integer, got 'x'");
  EXPECT_EQ(problem_of({"--warmup", "-1"}), "--warmup must be >= 0, got -1");
  EXPECT_EQ(problem_of({"--warmup-time", "x"}), "--warmup-time needs a number, got 'x'");
  EXPECT_EQ(problem_of({"--warmup-time", "inf"}), "--warmup-time needs a number, got 'inf'");
  EXPECT_EQ(problem_of({"--warmup-time", "-1"}), "--warmup-time must be in 0..1000000, got -1");
  EXPECT_EQ(problem_of({"--models="}), "--models needs a folder");
  EXPECT_EQ(problem_of({"--latencies", ""}), "--latencies needs a path");
  EXPECT_EQ(problem_of({"--callers", "0"}), "--callers must be >= 1, got 0");
}

// Contract 4: one caller is the default; more are parsed here and refused by the entry
// for a model that does not take them (driver_main.hpp, before it loads anything).
TEST(Options, TakesCallers) {
  EXPECT_EQ(parse({}).callers, 1);
  EXPECT_EQ(parse({"--callers", "1"}).callers, 1);
  EXPECT_EQ(parse({"--callers", "3"}).callers, 3);
}

TEST(Options, TheLastOfARepeatedOptionWins) {
  EXPECT_EQ(parse({"--calls", "5", "--calls=7"}).calls, 7);
}

TEST(Options, NamesTheBadOption) {
  try {
    parse({"--repeats", "zero"});
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--repeats"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace callbench
