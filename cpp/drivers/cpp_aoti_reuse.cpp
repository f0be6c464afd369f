// cpp-aoti-reuse: the same mlp.pt2 with what the AOTInductor API lets a
// caller keep between calls. The input tensor is made once and each call
// copies its samples into it; the runner (AOTIModelContainerRunner, from
// get_runner()) is looked up once and called with boxed_run, which takes the
// input vector by value and skips run()'s copy of it. Outputs cannot be kept:
// the compiled model allocates its output tensor on every run, and neither the
// loader nor the runner takes a preallocated one.
#include <cstring>
#include <string>
#include <vector>

#include "aoti_support.hpp"
#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class AotiReuseModel {
 public:
  explicit AotiReuseModel(const callbench::Options& options)
      : path_(options.models / "mlp.pt2"), batch_(options.batch) {
    callbench::configure_torch_threads(options.threads);
    loader_ = callbench::load_aoti_package(path_);
    runner_ = loader_->get_runner();
    input_ = torch::zeros({batch_, 2}, torch::kFloat32);
    callbench::check_first_call(path_, [&] { return run(); }, batch_);
  }

  void call(const float* in, float* out) {
    std::memcpy(input_.mutable_data_ptr<float>(), in, bytes_in());
    const std::vector<at::Tensor> outputs = run();
    std::memcpy(out, outputs[0].const_data_ptr<float>(), bytes_out());
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "AOTIModelContainerRunner::boxed_run, input tensor kept and copied into, "
        "run_single_threaded");
  }

 private:
  std::vector<at::Tensor> run() {
    std::vector<at::Tensor> inputs;
    inputs.reserve(1);
    inputs.push_back(input_);  // one more reference; boxed_run releases it
    return runner_->boxed_run(std::move(inputs));
  }
  std::size_t bytes_in() const { return static_cast<std::size_t>(batch_) * 2 * sizeof(float); }
  std::size_t bytes_out() const { return static_cast<std::size_t>(batch_) * sizeof(float); }

  std::filesystem::path path_;
  std::int64_t batch_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
  torch::inductor::AOTIModelContainerRunner* runner_ = nullptr;  // owned by loader_
  at::Tensor input_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return AotiReuseModel(options); };
  return callbench::driver_main(argc, argv, "cpp-aoti-reuse", load);
}
