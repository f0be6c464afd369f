// model: what a driver writes. Its load function returns an object with
//   void call(const float* in, float* out)  one call: in -> batch * 2 floats,
//                                           out -> batch * 1 floats, stored
//   std::string runtime_version() const     the runtime's own version string
//   Notes notes() const                     how the runtime is called, read-backs
// or, for a model of any inputs and outputs (contract 3: a user's ONNX model),
//   void call(std::span<const std::byte* const> inputs,
//             std::span<std::byte* const> outputs)   each input's batch of samples
//                                           -> each output's, in the model's order
//   const Signature& signature() const      the inputs and outputs, as the
//                                           runtime read them from the model
// with runtime_version() and notes() as above.
// The kit does everything else (options, inputs, rounds, serve, result), and
// sees a float Model as a TensorModel through its adapter (float_model.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "callbench/tensors.hpp"

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

// A model of any inputs and outputs: each call gets one pointer per input (its
// batch of samples) and one per output (where its batch is stored).
template <class M>
concept TensorModel = requires(M& model, const M& loaded, std::span<const std::byte* const> in,
                               std::span<std::byte* const> out) {
  model.call(in, out);
  { loaded.signature() } -> std::convertible_to<const Signature&>;
  { loaded.runtime_version() } -> std::convertible_to<std::string>;
  { loaded.notes() } -> std::convertible_to<Notes>;
};

}  // namespace callbench
