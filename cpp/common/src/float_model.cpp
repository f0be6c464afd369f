#include "callbench/float_model.hpp"

namespace callbench {

const Signature& mlp_signature() {
  static const Signature signature{{{"x", Dtype::float32, {2}}}, {{"y", Dtype::float32, {1}}}};
  return signature;
}

}  // namespace callbench
