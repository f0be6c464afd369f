// callbench-callers-test: a driver of the C++ kit that takes callers (contract 4)
// and misbehaves in one chosen caller on request, for the conformance test:
//
//   callbench-callers-test MODE DRIVER_ID <contract options>
//
// Each caller's call state is cpp-handwritten's forward over its own buffers, so
// its outputs are the model's and only MODE can fail it: "ok";
// "fail-in-caller-C" (caller C throws in its first round); "hang-in-caller-C"
// (caller C sleeps ten minutes in its first round); "stall-at-call-J" (after
// its warm-up, the first call over the samples of call J, whichever caller
// makes it, sleeps 50 ms first: contract 6's paced test). It takes --gathered
// (contract 7): the batcher's call of n samples is the forward over n, and the
// result line's notes count the samples those calls took (gathered_samples).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "callbench/driver_main.hpp"
#include "callbench/inputs.hpp"
#include "callbench/mlp_weights.hpp"
#include "mlp_forward.hpp"

namespace {

struct Mode {
  std::string how = "ok";
  int caller = -1;
  int stall_at = -1;  // stall-at-call-J: J

  explicit Mode(std::string_view text) {
    const auto dash = text.rfind('-');
    if (dash != std::string_view::npos && text.substr(0, dash).ends_with("-in-caller")) {
      how = std::string(text.substr(0, dash));
      caller = std::stoi(std::string(text.substr(dash + 1)));
    }
    if (dash != std::string_view::npos && text.substr(0, dash) == "stall-at-call") {
      stall_at = std::stoi(std::string(text.substr(dash + 1)));
    }
  }
};

// The one stall of stall-at-call-J, in the whole process.
std::atomic<bool> stalled{false};

class ForwardState {
 public:
  ForwardState(const callbench::Options& options, bool misbehaves, std::string how,
               int stall_at = -1)
      : forward_(callbench::read_weights(options.models / "mlp_weights.f32")),
        batch_(static_cast<std::size_t>(options.batch)),
        warmup_(options.warmup),
        misbehaves_(misbehaves),
        how_(std::move(how)) {
    if (stall_at >= 0) {  // the samples of call J: a call over them is the one to stall
      const std::vector<float> all =
          callbench::read_finite_floats(options.models / "inputs.f32", 2, "sample");
      const auto first = all.begin() + static_cast<std::ptrdiff_t>(2 * batch_) * stall_at;
      stall_samples_.assign(first, first + static_cast<std::ptrdiff_t>(2 * batch_));
    }
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    if (!stall_samples_.empty() && ++post_warmup_ > warmup_ &&
        std::memcmp(in[0], stall_samples_.data(), stall_samples_.size() * sizeof(float)) == 0 &&
        !stalled.exchange(true)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (misbehaves_ && ++calls_ > warmup_) {  // the warm-up goes as it should
      if (how_ == "fail-in-caller") throw std::runtime_error("failed on purpose");
      std::this_thread::sleep_for(std::chrono::minutes(10));
    }
    forward_(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out[0]), batch_);
  }

  // The forward over the first n samples only (a gathered call).
  void call_samples(std::span<const std::byte* const> in, std::span<std::byte* const> out,
                    std::size_t n) {
    forward_(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out[0]), n);
  }

 private:
  callbench::MlpForward forward_;
  std::size_t batch_;
  std::int64_t warmup_;
  bool misbehaves_;
  std::string how_;
  std::int64_t calls_ = 0;
  std::vector<float> stall_samples_;  // stall-at-call-J: call J's samples
  std::int64_t post_warmup_ = 0;
};

class CallersTestModel {
 public:
  CallersTestModel(const callbench::Options& options, Mode mode)
      : options_(options), mode_(std::move(mode)), one_(options, false, "ok", mode_.stall_at) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  void call_gathered(std::span<const std::byte* const> in, std::span<std::byte* const> out,
                     std::size_t n) {
    gathered_samples_ += static_cast<std::int64_t>(n);
    one_.call_samples(in, out, n);
  }
  ForwardState caller() {
    return ForwardState(options_, made_++ == mode_.caller, mode_.how, mode_.stall_at);
  }
  callbench::Holding holding() const {
    return {callbench::kPerCaller, "cpp-handwritten's forward, its buffers made by each caller"};
  }
  const callbench::Signature& signature() const { return callbench::mlp_signature(); }
  std::string runtime_version() const { return "0"; }
  callbench::Notes notes() const {
    if (!options_.gathered) return {};
    return {{"gathered_samples", gathered_samples_}};
  }

 private:
  callbench::Options options_;
  std::int64_t gathered_samples_ = 0;
  Mode mode_;
  ForwardState one_;
  int made_ = 0;  // call states made: the kit makes them in caller order
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const Mode mode(argv[1]);
  const auto load = [&mode](const callbench::Options& options) {
    return CallersTestModel(options, mode);
  };
  // argv[2], the driver's id, stands where the program's name would.
  return callbench::driver_main(argc - 2, argv + 2, argv[2], load);
}
