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
// A TensorModel that takes callers (contract 4) also has
//   Holding holding() const                 how its callers hold the model
//   C caller()                              one caller's own call state: an object
//                                           with the call above, made in that
//                                           caller's thread, whose calls may run at
//                                           once with the other callers'
// The kit does everything else (options, inputs, rounds, serve, result), and
// sees a float Model as a TensorModel through its adapter (float_model.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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

// How a driver's callers hold the model (contract 4), as its runtime documents:
// one handle called from every caller at once, or one loaded by each caller.
inline constexpr std::string_view kShared = "shared";
inline constexpr std::string_view kPerCaller = "per caller";

struct Holding {
  std::string_view holds;  // kShared or kPerCaller
  std::string how;         // what is shared or made per caller, in the runtime's words
};

// One caller's call state: the TensorModel's call, nothing else.
template <class C>
concept CallState = requires(C& state, std::span<const std::byte* const> in,
                             std::span<std::byte* const> out) {
  state.call(in, out);
};

template <class M>
concept TakesCallers = TensorModel<M> && requires(M& model, const M& loaded) {
  { loaded.holding() } -> std::convertible_to<Holding>;
  { model.caller() } -> CallState;
};

}  // namespace callbench
