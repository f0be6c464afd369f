// errors: the two kinds of failure the driver contract distinguishes, and
// how they become one line on stderr and an exit status.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "callbench/options.hpp"

namespace callbench {

// The driver was invoked wrongly (bad option, too few samples, a bad
// command in serve mode): exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file the driver reads is missing, malformed or does not load: exit 1.
// The message is "<path>: <problem>", as the contract wants it.
class DataError : public std::runtime_error {
 public:
  DataError(const std::filesystem::path& path, const std::string& problem);
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

// The first non-empty line of a library's (often multi-line) error message,
// so that our error stays one line.
std::string first_line(std::string_view text);

// The error for an artifact that is not there.
DataError missing_artifact(const std::filesystem::path& path);

// Throws missing_artifact(path) unless path is a regular file.
void require_file(const std::filesystem::path& path);

// Parses the options and runs body. Returns 0, or maps UsageError to exit 2
// and DataError or any other exception to exit 1, each as one line
// "<id>: usage: ..." / "<id>: error: ..." on stderr (the full message
// before it only with --debug).
int guarded_main(int argc, const char* const* argv, std::string_view id,
                 const std::function<void(const Options&)>& body);

}  // namespace callbench
