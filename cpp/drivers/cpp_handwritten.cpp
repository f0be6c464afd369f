// cpp-handwritten: the forward pass as plain loops over mlp_weights.f32, no
// library at all. The floor: what one call costs when only the arithmetic is left.
// Its hidden width comes from the weights' size; the reference's 8 has a fixed-size path.
#include <cstdint>
#include <string>

#include "callbench/driver_main.hpp"
#include "callbench/mlp_weights.hpp"
#include "mlp_forward.hpp"

namespace {

class HandwrittenModel {
 public:
  explicit HandwrittenModel(const callbench::Options& options)
      : forward_(callbench::read_weights(options.models / "mlp_weights.f32")),
        batch_(static_cast<std::size_t>(options.batch)) {}

  void call(const float* in, float* out) { forward_(in, out, batch_); }
  std::string runtime_version() const {
#if defined(__clang__)
    return "clang " __clang_version__;
#else
    return "g++ " __VERSION__;
#endif
  }
  callbench::Notes notes() const {
    return {{"call", "plain loops, -O3, compiler barrier after each call"},
            {"hidden", static_cast<std::int64_t>(forward_.hidden())}};
  }

 private:
  callbench::MlpForward forward_;
  std::size_t batch_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return HandwrittenModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-handwritten", load);
}
