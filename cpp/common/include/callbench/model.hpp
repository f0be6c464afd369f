// model: what a driver writes. Its load function returns an object with
//   void call(const float* in, float* out)  one call: in -> batch * 2 floats,
//                                           out -> batch * 1 floats, stored
//   std::string runtime_version() const     the runtime's own version string
//   Notes notes() const                     how the runtime is called, read-backs
// The kit does everything else (options, inputs, rounds, serve, result).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace callbench {

// The result line's "notes": an object of strings and numbers, in this order.
using NoteValue = std::variant<std::string, std::int64_t, double>;
using Notes = std::vector<std::pair<std::string, NoteValue>>;

template <class M>
concept Model = requires(M& model, const M& loaded, const float* in, float* out) {
  model.call(in, out);
  { loaded.runtime_version() } -> std::convertible_to<std::string>;
  { loaded.notes() } -> std::convertible_to<Notes>;
};

}  // namespace callbench
