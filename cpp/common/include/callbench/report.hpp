// The one-line JSON object a driver prints on success (the contract's stdout).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "callbench/options.hpp"

namespace callbench {

struct DriverInfo {
  std::string id;        // e.g. "cpp-onnxruntime"
  std::string runtime;   // e.g. "onnxruntime"
  std::string artifact;  // e.g. "mlp.onnx"
};

struct RunResult {
  std::string runtime_version;
  std::vector<std::int64_t> repeat_ns;
  std::int64_t load_ns = 0;
  std::string notes;  // optional, omitted when empty
};

std::string json_string(const std::string& text);
std::string report_json(const DriverInfo& info, const Options& options, const RunResult& result);

}  // namespace callbench
