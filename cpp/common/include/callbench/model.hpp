// model: what a driver writes. Its load function returns an object with
//   void call(const float* in, float* out)  one call: in -> batch * 2 floats,
//                                           out -> batch * 1 floats, stored
//   std::string runtime_version() const     the runtime's own version string
//   Notes notes() const                     how the runtime is called, read-backs
// and, where the model says its own sizes (a user's ONNX model, --onnx),
//   SampleWidths sample_widths() const      floats per sample in and out, read
//                                           from what it loaded (else 2 and 1)
// The kit does everything else (options, inputs, rounds, serve, result).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace callbench {

// The result line's "notes": an object of strings and numbers, in this order.
using NoteValue = std::variant<std::string, std::int64_t, double>;
using Notes = std::vector<std::pair<std::string, NoteValue>>;

// Floats per sample: in (inputs.f32) and out (the outputs), our MLP's by default.
struct SampleWidths {
  std::size_t input = 2;
  std::size_t output = 1;
};

template <class M>
concept Model = requires(M& model, const M& loaded, const float* in, float* out) {
  model.call(in, out);
  { loaded.runtime_version() } -> std::convertible_to<std::string>;
  { loaded.notes() } -> std::convertible_to<Notes>;
};

// The model's own sample widths if it reports them, else our MLP's.
template <Model M>
SampleWidths sample_widths_of(const M& model) {
  if constexpr (requires { { model.sample_widths() } -> std::convertible_to<SampleWidths>; }) {
    return model.sample_widths();
  } else {
    return SampleWidths{};
  }
}

}  // namespace callbench
