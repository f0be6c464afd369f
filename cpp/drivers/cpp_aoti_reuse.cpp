// cpp-aoti-reuse: the same mlp.pt2 with what the AOTInductor API lets a
// caller keep between calls. The input tensors are made once and each call
// copies its samples into them; the runner (AOTIModelContainerRunner, from
// get_runner()) is looked up once and called with boxed_run, which takes the
// input vector by value and skips run()'s copy of it. Outputs cannot be kept:
// the compiled model allocates its output tensors on every run, and neither
// the loader nor the runner takes preallocated ones.
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "aoti_support.hpp"
#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load(const std::filesystem::path& path,
                                                              std::int64_t threads) {
  callbench::configure_torch_threads(threads);
  return callbench::load_aoti_package(path);
}

// One caller's call: a package loaded for it alone (run_single_threaded: no lock, so it
// is never shared), its runner, and its own kept input tensors.
class ReuseCall {
 public:
  ReuseCall(std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader,
            const callbench::TorchTensors& tensors)
      : loader_(std::move(loader)),
        runner_(loader_->get_runner()),
        tensors_(tensors),
        inputs_(tensors.zero_inputs()) {
    for (const at::Tensor& input : inputs_) input_bytes_.push_back(input.nbytes());
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    for (std::size_t k = 0; k < in.size(); ++k) {
      std::memcpy(inputs_[k].mutable_data_ptr(), in[k], input_bytes_[k]);
    }
    tensors_.store_outputs(run(), out);
  }

  std::vector<at::Tensor> run() {
    std::vector<at::Tensor> inputs(inputs_);  // one more reference each; boxed_run releases them
    return runner_->boxed_run(std::move(inputs));
  }
  torch::inductor::AOTIModelPackageLoader& loader() { return *loader_; }

 private:
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
  torch::inductor::AOTIModelContainerRunner* runner_;  // owned by loader_
  const callbench::TorchTensors& tensors_;
  std::vector<at::Tensor> inputs_;
  std::vector<std::size_t> input_bytes_;
};

class AotiReuseModel {
 public:
  explicit AotiReuseModel(const callbench::Options& options)
      : path_(options.models / "mlp.pt2"),
        first_(load(path_, options.threads)),
        tensors_(callbench::aoti_signature(path_, *first_), options.batch),
        one_(std::move(first_), tensors_) {
    callbench::check_first_call(path_, [&] { return one_.run(); }, tensors_);
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "AOTIModelContainerRunner::boxed_run, input tensors kept and copied into, "
        "run_single_threaded");
  }
  callbench::Holding holding() const {
    return {callbench::kPerCaller,
            "an AOTIModelPackageLoader of its own in each caller (run_single_threaded)"};
  }
  // The threads were configured with the first load, once per process.
  ReuseCall caller() { return ReuseCall(callbench::load_aoti_package(path_), tensors_); }

 private:
  std::filesystem::path path_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> first_;  // moved into one_
  callbench::TorchTensors tensors_;
  ReuseCall one_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return AotiReuseModel(options); };
  return callbench::driver_main(argc, argv, "cpp-aoti-reuse", load);
}
