#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "callbench/result.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

Result sample_result() {
  Result r;
  r.driver = "cpp-x";
  r.calls = 10;
  r.batch = 2;
  r.threads = 1;
  r.runtime_version = "1.2.3";
  r.load_ns = 42;
  r.peak_rss_bytes = 4096;
  r.rounds = {{10, 100, 90, {}, 1000}, {5, 50, 45, {}, 2000}};
  r.notes = {{"call", "a \"note\""}, {"threads", std::int64_t{4}}, {"ratio", 0.5}};
  return r;
}

TEST(Result, PrintsTheContractLineExactly) {
  EXPECT_EQ(result_json(sample_result()),
            R"({"driver":"cpp-x","calls":10,"batch":2,"threads":1,)"
            R"("runtime_version":"1.2.3","load_ns":42,"peak_rss_bytes":4096,)"
            R"("rounds":[{"calls":10,"ns":100,"cpu_ns":90,"start_ns":1000,"end_ns":1100},)"
            R"({"calls":5,"ns":50,"cpu_ns":45,"start_ns":2000,"end_ns":2050}],)"
            R"("notes":{"call":"a \"note\"","threads":4,"ratio":0.5}})");
}

TEST(Result, UnreadablePeakIsNullAndEmptyNotesAnObject) {
  Result r = sample_result();
  r.peak_rss_bytes.reset();
  r.notes.clear();
  r.rounds.clear();
  const std::string json = result_json(r);
  EXPECT_NE(json.find(R"("peak_rss_bytes":null)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("rounds":[])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("notes":{}})"), std::string::npos) << json;
}

TEST(Result, NonFiniteNoteNumbersAreNull) {
  Result r = sample_result();
  r.notes = {{"x", std::numeric_limits<double>::infinity()}};
  EXPECT_NE(result_json(r).find(R"("notes":{"x":null})"), std::string::npos);
}

TEST(Result, EscapesControlCharactersAndKeepsBadBytesOnOneLine) {
  Result r = sample_result();
  r.notes = {{"why", std::string("a\nb\\\x01\xff")}};
  // The bad byte becomes U+FFFD, written as UTF-8.
  EXPECT_NE(result_json(r).find(R"("notes":{"why":"a\nb\\\u0001)" "\xef\xbf\xbd\"}"), std::string::npos)
      << result_json(r);
}

TEST(PeakRss, ReadsVmHwmInBytes) {
  const std::string status =
      "Name:\tcpp-x\nVmPeak:\t  200000 kB\nVmHWM:\t    31440 kB\nVmRSS:\t   30000 kB\n";
  EXPECT_EQ(vm_hwm_bytes(status), 31440 * 1024);
  EXPECT_EQ(vm_hwm_bytes("VmHWM: 1 kB"), 1024);  // first line, no newline
}

TEST(PeakRss, MissingOrMalformedVmHwmIsNull) {
  EXPECT_EQ(vm_hwm_bytes(""), std::nullopt);
  EXPECT_EQ(vm_hwm_bytes("VmRSS:\t 100 kB\n"), std::nullopt);
  EXPECT_EQ(vm_hwm_bytes("VmHWM:\t lots kB\n"), std::nullopt);
  EXPECT_EQ(vm_hwm_bytes("VmHWM:\t 100 MB\n"), std::nullopt);
  EXPECT_EQ(vm_hwm_bytes("XVmHWM:\t 100 kB\n"), std::nullopt);
}

TEST(PeakRss, ReadsThisProcessAndNullWhenUnreadable) {
  const auto bytes = peak_rss_bytes();
  ASSERT_TRUE(bytes.has_value());  // Linux: /proc/self/status has VmHWM
  EXPECT_GT(*bytes, 0);
  EXPECT_EQ(*bytes % 1024, 0);
  testing::TempDir dir;
  EXPECT_EQ(peak_rss_bytes(dir / "no-such-status"), std::nullopt);
}

}  // namespace
}  // namespace callbench
