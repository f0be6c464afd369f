#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

TEST(Errors, FirstLineSkipsBlankLinesAndTrims) {
  EXPECT_EQ(first_line("\n\n  first  \nsecond"), "  first");
  EXPECT_EQ(first_line("only"), "only");
  EXPECT_EQ(first_line(""), "unknown error");
}

// Runs guarded_main with the given arguments and body; returns the exit
// status and what it wrote on stderr.
std::pair<int, std::string> run(std::vector<const char*> args,
                                const std::function<void(const Options&)>& body) {
  args.insert(args.begin(), "prog");
  ::testing::internal::CaptureStderr();
  const int status = guarded_main(static_cast<int>(args.size()), args.data(), "cpp-x", body);
  return {status, ::testing::internal::GetCapturedStderr()};
}

TEST(Errors, GuardedMainMapsErrorsToOneLineAndAnExitStatus) {
  const auto ok = run({"--calls", "5"}, [](const Options& o) { EXPECT_EQ(o.calls, 5); });
  EXPECT_EQ(ok, (std::pair<int, std::string>{0, ""}));

  const auto usage = run({"--bogus"}, [](const Options&) {});
  EXPECT_EQ(usage.first, 2);
  EXPECT_EQ(usage.second, "cpp-x: usage: unknown option '--bogus'\n");

  const auto bad_command = run({}, [](const Options&) { throw UsageError("unknown command 'x'"); });
  EXPECT_EQ(bad_command, (std::pair<int, std::string>{2, "cpp-x: usage: unknown command 'x'\n"}));

  const auto data = run({}, [](const Options&) { throw DataError("m/a.f32", "truncated"); });
  EXPECT_EQ(data, (std::pair<int, std::string>{1, "cpp-x: error: m/a.f32: truncated\n"}));

  const auto library = run({}, [](const Options&) { throw std::runtime_error("boom\nframe 1"); });
  EXPECT_EQ(library, (std::pair<int, std::string>{1, "cpp-x: error: boom\n"}));

  const auto debug =
      run({"--debug"}, [](const Options&) { throw std::runtime_error("boom\nframe 1"); });
  EXPECT_EQ(debug, (std::pair<int, std::string>{1, "boom\nframe 1\ncpp-x: error: boom\n"}));
}

}  // namespace
}  // namespace callbench
