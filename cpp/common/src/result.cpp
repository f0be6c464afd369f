#include "callbench/result.hpp"

#include <charconv>
#include <fstream>
#include <iterator>
#include <variant>

#include <nlohmann/json.hpp>

namespace callbench {

// A round as the contract writes it (nlohmann's to_json hook, found by
// argument-dependent lookup; only the result line uses it).
void to_json(nlohmann::ordered_json& json, const Round& round) {
  json = {{"calls", round.calls},
          {"ns", round.ns},
          {"cpu_ns", round.cpu_ns},
          {"start_ns", round.start_ns},
          {"end_ns", round.start_ns + round.ns}};
  if (!round.caller_ns.empty()) {
    json["callers"] = round.caller_ns.size();
    json["caller_ns"] = round.caller_ns;
  }
}

std::string result_json(const Result& r) {
  nlohmann::ordered_json notes = nlohmann::ordered_json::object();
  for (const auto& [key, value] : r.notes) {
    // nlohmann writes a NaN or Inf double as null, the contract's choice too.
    std::visit([&notes, &key](const auto& v) { notes[key] = v; }, value);
  }
  nlohmann::ordered_json line = {{"driver", r.driver},
                                 {"calls", r.calls},
                                 {"batch", r.batch},
                                 {"threads", r.threads}};
  if (r.callers > 1) line["callers"] = r.callers;  // contract 4: echoed beside threads
  line.update(nlohmann::ordered_json{{"runtime_version", r.runtime_version},
                                 {"load_ns", r.load_ns},
                                 {"peak_rss_bytes", nullptr},
                                 {"rounds", r.rounds},
                                 {"notes", std::move(notes)}});
  if (r.peak_rss_bytes) line["peak_rss_bytes"] = *r.peak_rss_bytes;
  // replace: a driver's note may quote a library's message in any bytes.
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
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
