#include <gtest/gtest.h>

#include <string>

#include "callbench/report.hpp"

namespace callbench {
namespace {

TEST(Report, PrintsTheContractKeysOnOneLine) {
  Options o;
  o.calls = 10;
  o.repeats = 2;
  const DriverInfo info{"cpp-x", "rt", "m.onnx"};
  const RunResult r{"1.2.3", {100, 200}, 42, "a \"note\""};
  const std::string json = report_json(info, o, r);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_NE(json.find("\"driver\": \"cpp-x\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"language\": \"C++\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"runtime_version\": \"1.2.3\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"repeat_ns\": [100, 200]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"load_ns\": 42"), std::string::npos) << json;
  EXPECT_NE(json.find("\"notes\": \"a \\\"note\\\"\""), std::string::npos) << json;
}

TEST(Report, EscapesControlCharacters) {
  EXPECT_EQ(json_string("a\nb\\"), "\"a\\nb\\\\\"");
  EXPECT_EQ(json_string(std::string(1, '\x01')), "\"\\u0001\"");
}

}  // namespace
}  // namespace callbench
