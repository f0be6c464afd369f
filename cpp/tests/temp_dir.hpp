// A fresh folder per test, removed afterwards, and small file helpers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

namespace callbench::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const char* name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

void write_raw(const std::filesystem::path& path, const void* data, std::size_t bytes);
std::vector<char> read_raw(const std::filesystem::path& path);

template <class T>
void write_values(const std::filesystem::path& path, std::span<const T> values) {
  write_raw(path, values.data(), values.size_bytes());
}

}  // namespace callbench::testing
