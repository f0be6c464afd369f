#include "callbench/report.hpp"

#include <cstdio>
#include <sstream>

namespace callbench {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string report_json(const DriverInfo& info, const Options& options, const RunResult& result) {
  std::ostringstream out;
  out << "{\"driver\": " << json_string(info.id) << ", \"language\": \"C++\""
      << ", \"runtime\": " << json_string(info.runtime)
      << ", \"runtime_version\": " << json_string(result.runtime_version)
      << ", \"artifact\": " << json_string(info.artifact) << ", \"calls\": " << options.calls
      << ", \"batch\": " << options.batch << ", \"threads\": " << options.threads
      << ", \"warmup\": " << options.warmup << ", \"repeats\": " << options.repeats
      << ", \"repeat_ns\": [";
  for (std::size_t i = 0; i < result.repeat_ns.size(); ++i) {
    out << (i ? ", " : "") << result.repeat_ns[i];
  }
  out << "], \"load_ns\": " << result.load_ns;
  if (!result.notes.empty()) out << ", \"notes\": " << json_string(result.notes);
  out << "}";
  return out.str();
}

}  // namespace callbench
