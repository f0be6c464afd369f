// The message of the exception an action throws, for the kit's error tests.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace callbench::testing {

// What `action` throws says, or "" when it throws nothing.
inline std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace callbench::testing
