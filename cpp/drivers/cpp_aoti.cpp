// cpp-aoti: AOTInductor from C++ the way its tutorial does it:
// torch::inductor::AOTIModelPackageLoader on mlp.pt2 (it unpacks the package
// and dlopen()s the compiled model), with run_single_threaded (no locking
// around the model container: one caller). Each call wraps its samples with
// from_blob as [batch, 2], passes a new std::vector<at::Tensor> to run(),
// and copies the output out of the tensor the model allocated.
#include <cstring>
#include <string>
#include <vector>

#include "aoti_support.hpp"
#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class AotiModel {
 public:
  explicit AotiModel(const callbench::Options& options)
      : path_(options.models / "mlp.pt2"), batch_(options.batch) {
    callbench::configure_torch_threads(options.threads);
    loader_ = callbench::load_aoti_package(path_);
    std::vector<float> in(static_cast<std::size_t>(batch_) * 2, 0.0f);
    callbench::check_first_call(path_, [&] { return run(in.data()); }, batch_);
  }

  void call(const float* in, float* out) {
    const std::vector<at::Tensor> outputs = run(in);
    std::memcpy(out, outputs[0].const_data_ptr<float>(),
                static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "AOTIModelPackageLoader::run(std::vector{from_blob}), run_single_threaded");
  }

 private:
  std::vector<at::Tensor> run(const float* in) {
    // from_blob only views the caller's samples; the model never writes its input.
    return loader_->run({torch::from_blob(const_cast<float*>(in), {batch_, 2}, torch::kFloat32)});
  }

  std::filesystem::path path_;
  std::int64_t batch_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return AotiModel(options); };
  return callbench::driver_main(argc, argv, "cpp-aoti", load);
}
