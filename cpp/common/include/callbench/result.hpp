// result: the one-line JSON object a driver prints last on success, and the
// process's peak resident memory it reports.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "callbench/model.hpp"
#include "callbench/rounds.hpp"

namespace callbench {

struct Result {
  std::string driver;  // the driver's id, e.g. "cpp-onnxruntime"
  std::int64_t calls = 0;
  std::int64_t batch = 0;
  std::int64_t threads = 0;
  std::int64_t callers = 1;  // echoed when > 1 (contract 4)
  std::string runtime_version;
  std::int64_t load_ns = 0;
  std::optional<std::int64_t> peak_rss_bytes;  // null when unreadable
  std::vector<Round> rounds;
  Notes notes;
};

// The result line (nlohmann-json, keys in the contract's order, no newline).
std::string result_json(const Result& result);

// VmHWM of a /proc/<pid>/status text, in bytes; nullopt if absent or malformed.
std::optional<std::int64_t> vm_hwm_bytes(std::string_view status);

// VmHWM of this process (/proc/self/status), in bytes; nullopt if unreadable.
std::optional<std::int64_t> peak_rss_bytes(
    const std::filesystem::path& status = "/proc/self/status");

}  // namespace callbench
