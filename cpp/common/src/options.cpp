#include "callbench/options.hpp"

#include <charconv>
#include <limits>
#include <string>
#include <vector>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

std::int64_t parse_count(std::string_view name, std::string_view text, std::int64_t minimum) {
  std::int64_t value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw UsageError(std::string(name) + " needs an integer, got '" + std::string(text) + "'");
  }
  if (value < minimum) {
    throw UsageError(std::string(name) + " must be >= " + std::to_string(minimum) + ", got " +
                     std::to_string(value));
  }
  return value;
}

}  // namespace

Options parse_options(std::span<const std::string_view> args) {
  Options options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view name = args[i];
    std::string_view value;
    bool has_value = false;
    if (const auto eq = name.find('='); name.starts_with("--") && eq != std::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (name == "--debug" || name == "--serve") {
      if (has_value) throw UsageError(std::string(name) + " takes no value");
      (name == "--debug" ? options.debug : options.serve) = true;
      continue;
    }
    const bool known = name == "--models" || name == "--calls" || name == "--warmup" ||
                       name == "--repeats" || name == "--batch" || name == "--threads" ||
                       name == "--outputs" || name == "--latencies";
    if (!known) throw UsageError("unknown option '" + std::string(name) + "'");
    if (!has_value) {
      if (i + 1 >= args.size()) throw UsageError(std::string(name) + " needs a value");
      value = args[++i];
    }
    if (name == "--models") {
      if (value.empty()) throw UsageError("--models needs a folder");
      options.models = std::filesystem::path(value);
    } else if (name == "--calls") {
      options.calls = parse_count(name, value, 1);
    } else if (name == "--warmup") {
      options.warmup = parse_count(name, value, 0);
    } else if (name == "--repeats") {
      options.repeats = parse_count(name, value, 1);
    } else if (name == "--batch") {
      options.batch = parse_count(name, value, 1);
    } else if (name == "--threads") {
      options.threads = parse_count(name, value, 1);
    } else if (name == "--outputs") {
      if (value.empty()) throw UsageError("--outputs needs a path");
      options.outputs = std::filesystem::path(value);
    } else {
      if (value.empty()) throw UsageError("--latencies needs a path");
      options.latencies = std::filesystem::path(value);
    }
  }
  // calls * batch floats must be addressable; the input check bounds it further.
  if (options.calls > std::numeric_limits<std::int64_t>::max() / 2 / options.batch) {
    throw UsageError("--calls x --batch is too large");
  }
  return options;
}

Options parse_options(int argc, const char* const* argv) {
  std::vector<std::string_view> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return parse_options(std::span<const std::string_view>(args));
}

}  // namespace callbench
