#include "callbench/result.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace callbench {
namespace {

// A JSON number: shortest round-trip form; null for NaN or Inf.
std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : "null";
}

std::string json_value(const NoteValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return json_string(*text);
  if (const auto* count = std::get_if<std::int64_t>(&value)) return std::to_string(*count);
  return json_number(std::get<double>(value));
}

}  // namespace

std::string json_string(std::string_view text) {
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

std::string result_json(const Result& r) {
  std::ostringstream out;
  out << "{\"driver\": " << json_string(r.driver) << ", \"calls\": " << r.calls
      << ", \"batch\": " << r.batch << ", \"threads\": " << r.threads
      << ", \"runtime_version\": " << json_string(r.runtime_version)
      << ", \"load_ns\": " << r.load_ns << ", \"peak_rss_bytes\": ";
  if (r.peak_rss_bytes) {
    out << *r.peak_rss_bytes;
  } else {
    out << "null";
  }
  out << ", \"rounds\": [";
  for (std::size_t i = 0; i < r.rounds.size(); ++i) {
    const Round& round = r.rounds[i];
    out << (i ? ", " : "") << "{\"calls\": " << round.calls << ", \"ns\": " << round.ns
        << ", \"cpu_ns\": " << round.cpu_ns << "}";
  }
  out << "], \"notes\": {";
  for (std::size_t i = 0; i < r.notes.size(); ++i) {
    out << (i ? ", " : "") << json_string(r.notes[i].first) << ": "
        << json_value(r.notes[i].second);
  }
  out << "}}";
  return out.str();
}

std::optional<std::int64_t> vm_hwm_bytes(std::string_view status) {
  constexpr std::string_view key = "VmHWM:";
  std::size_t at = 0;
  while (at < status.size() && status.substr(at, key.size()) != key) {
    const auto newline = status.find('\n', at);
    if (newline == std::string_view::npos) return std::nullopt;
    at = newline + 1;
  }
  if (at >= status.size()) return std::nullopt;
  std::string_view rest = status.substr(at + key.size());
  rest = rest.substr(0, rest.find('\n'));
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  std::int64_t kib = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
  if (ec != std::errc() || kib < 0) return std::nullopt;
  std::string_view unit(end, static_cast<std::size_t>(rest.data() + rest.size() - end));
  while (!unit.empty() && (unit.front() == ' ' || unit.front() == '\t')) unit.remove_prefix(1);
  while (!unit.empty() && (unit.back() == ' ' || unit.back() == '\r')) unit.remove_suffix(1);
  if (unit != "kB") return std::nullopt;  // the kernel writes kibibytes as "kB"
  return kib * 1024;
}

std::optional<std::int64_t> peak_rss_bytes(const std::filesystem::path& status) {
  std::ifstream in(status);
  if (!in) return std::nullopt;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return vm_hwm_bytes(text);
}

}  // namespace callbench
