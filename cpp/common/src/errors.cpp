#include "callbench/errors.hpp"

#include <exception>
#include <iostream>

namespace callbench {

DataError::DataError(const std::filesystem::path& path, const std::string& problem)
    : std::runtime_error(path.string() + ": " + problem), path_(path) {}

std::string first_line(std::string_view text) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty()) return std::string(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return "unknown error";
}

DataError missing_artifact(const std::filesystem::path& path) {
  return DataError(path, "missing; run `nox -s export` first");
}

void require_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw missing_artifact(path);
}

int guarded_main(int argc, const char* const* argv, std::string_view id,
                 const std::function<void(const Options&)>& body) {
  bool debug = false;
  try {
    const Options options = parse_options(argc, argv);
    if (options.help) {
      std::cout << help_line(id) << std::endl;
      return 0;
    }
    debug = options.debug;
    body(options);
    return 0;
  } catch (const UsageError& e) {
    std::cerr << id << ": usage: " << first_line(e.what()) << std::endl;
    return 2;
  } catch (const DataError& e) {
    std::cerr << id << ": error: " << first_line(e.what()) << std::endl;
    return 1;
  } catch (const std::exception& e) {
    // Library errors that escaped a driver's own mapping: full text only
    // with --debug, the contract's single line always last.
    if (debug) std::cerr << e.what() << "\n";
    std::cerr << id << ": error: " << first_line(e.what()) << std::endl;
    return 1;
  }
}

}  // namespace callbench
