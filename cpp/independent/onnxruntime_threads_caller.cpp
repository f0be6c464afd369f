// independent-cpp-onnxruntime-threads: ONNX Runtime from N threads the way a C++ user
// shares one session: each thread its own input and output Ort::Value over buffers
// of its own, Session::Run in a loop (Run is documented safe to call at once).
//
// Written apart from the C++ kit (it includes none of cpp/common), so that the
// kit's callers (callers.hpp) can be held against a program that only calls. It
// speaks just enough of the harness's dialogue: the ready line, `round K` (every
// thread's K calls, released together, answered with each thread's span), `end`
// (the outputs, thread after thread, and the result line); `latencies K` is
// answered and times nothing. Thread c's call i takes
// sample (c*K + i) mod S, so the harness checks every thread's outputs. Our MLP
// only: one float32 input x [2], one output y [1], any --batch.
#include <onnxruntime_cxx_api.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

std::string option(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return argv[i + 1];
  }
  return fallback;
}

struct Span {
  Clock::time_point start, end;
  std::int64_t cpu_ns = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string models = option(argc, argv, "--models", "models");
  const std::int64_t calls = std::stoll(option(argc, argv, "--calls", "1000000"));
  const std::int64_t warmup = std::stoll(option(argc, argv, "--warmup", "1000"));
  const int threads = std::stoi(option(argc, argv, "--threads", "1"));
  const int callers = std::stoi(option(argc, argv, "--callers", "1"));
  const std::string outputs_path = option(argc, argv, "--outputs", "");
  const std::int64_t batch = std::stoll(option(argc, argv, "--batch", "1"));

  const auto t0 = Clock::now();
  Ort::Env env(ORT_LOGGING_LEVEL_ERROR, "independent");
  Ort::SessionOptions options;
  options.SetIntraOpNumThreads(threads);
  options.SetInterOpNumThreads(1);
  Ort::Session session(env, (models + "/mlp.onnx").c_str(), options);
  const auto load_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();

  std::ifstream file(models + "/inputs.f32", std::ios::binary | std::ios::ate);
  std::vector<float> inputs(static_cast<std::size_t>(file.tellg()) / sizeof(float));
  file.seekg(0);
  file.read(reinterpret_cast<char*>(inputs.data()), std::streamsize(inputs.size() * 4));
  const auto b = static_cast<std::size_t>(batch);
  const std::size_t held = inputs.size() / 2 / b;  // S: the calls the inputs hold

  const Ort::MemoryInfo memory = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
  const char* input_names[] = {"x"};
  const char* output_names[] = {"y"};
  const std::array<std::int64_t, 2> x_shape{batch, 2}, y_shape{batch, 1};

  // Each thread's state: its buffers and values, its outputs, its span of the round.
  std::vector<std::vector<float>> x(callers, std::vector<float>(2 * b));
  std::vector<std::vector<float>> y(callers, std::vector<float>(b));
  std::vector<Ort::Value> x_value, y_value;
  for (int c = 0; c < callers; ++c) {
    x_value.push_back(
        Ort::Value::CreateTensor<float>(memory, x[c].data(), 2 * b, x_shape.data(), 2));
    y_value.push_back(Ort::Value::CreateTensor<float>(memory, y[c].data(), b, y_shape.data(), 2));
  }
  std::vector<std::vector<float>> out(callers, std::vector<float>(calls * b));
  std::vector<Span> spans(callers);
  std::int64_t k = 0;  // the round's calls; 0 ends the threads
  std::barrier release(callers + 1), done(callers + 1);
  Ort::RunOptions run_options;

  const auto calls_of = [&](int c, std::int64_t n, bool keep) {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::size_t call = static_cast<std::size_t>(c * n + i) % held;
      std::copy_n(inputs.begin() + static_cast<std::ptrdiff_t>(2 * b * call), 2 * b, x[c].begin());
      session.Run(run_options, input_names, &x_value[c], 1, output_names, &y_value[c], 1);
      if (keep) std::copy(y[c].begin(), y[c].end(), out[c].begin() + static_cast<std::ptrdiff_t>(i * b));
    }
  };
  std::vector<std::thread> pool;
  for (int c = 0; c < callers; ++c) {
    pool.emplace_back([&, c] {
      calls_of(c, std::min(warmup, calls), false);  // each thread's own warm-up
      for (;;) {
        release.arrive_and_wait();
        if (k == 0) return;
        const std::int64_t cpu0 = thread_cpu_ns();
        spans[c].start = Clock::now();
        calls_of(c, k, true);
        spans[c].end = Clock::now();
        spans[c].cpu_ns = thread_cpu_ns() - cpu0;
        done.arrive_and_wait();
      }
    });
  }
  std::printf("{\"event\": \"ready\", \"load_ns\": %lld}\n", static_cast<long long>(load_ns));
  std::fflush(stdout);

  std::string rounds = "[";
  std::int64_t last = 0;
  std::string line;
  while (std::getline(std::cin, line) && line.rfind("end", 0) != 0) {
    if (line.rfind("latencies ", 0) == 0) {  // accepted; this caller times no latencies
      std::printf("{\"event\": \"latencies\", \"calls\": %s}\n", line.substr(10).c_str());
      std::fflush(stdout);
      continue;
    }
    if (line.rfind("round ", 0) != 0) {
      std::cerr << "independent-cpp-onnxruntime-threads: usage: unknown command '" << line
                << "'\n";
      std::_Exit(2);
    }
    k = std::stoll(line.substr(6));
    release.arrive_and_wait();
    done.arrive_and_wait();
    auto first = spans[0].start, end = spans[0].end;
    std::int64_t cpu = 0;
    std::string each;
    for (const Span& span : spans) {
      first = std::min(first, span.start);
      end = std::max(end, span.end);
      cpu += span.cpu_ns;
      each += (each.empty() ? "" : ", ") +
              std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 span.end - span.start)
                                 .count());
    }
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - first).count();
    const std::string answer = "{\"calls\": " + std::to_string(k) + ", \"ns\": " +
                               std::to_string(ns) + ", \"cpu_ns\": " + std::to_string(cpu) +
                               ", \"callers\": " + std::to_string(callers) +
                               ", \"caller_ns\": [" + each + "]}";
    std::printf("{\"event\": \"round\", %s\n", answer.substr(1).c_str());
    std::fflush(stdout);
    rounds += (last ? ", " : "") + answer;
    last = k;
  }
  k = 0;
  release.arrive_and_wait();
  for (std::thread& thread : pool) thread.join();
  if (!outputs_path.empty()) {
    std::ofstream sink(outputs_path, std::ios::binary);
    for (const auto& mine : out) {
      sink.write(reinterpret_cast<const char*>(mine.data()), std::streamsize(last * batch * 4));
    }
  }
  std::printf(
      "{\"driver\": \"independent-cpp-onnxruntime-threads\", \"calls\": %lld, \"batch\": %lld, "
      "\"threads\": %d%s, \"runtime_version\": \"%s\", \"load_ns\": %lld, \"peak_rss_bytes\": "
      "null, \"rounds\": %s], \"notes\": {\"caller\": \"independent plain loop, one session "
      "from std::threads\"}}\n",
      static_cast<long long>(calls), static_cast<long long>(batch), threads,
      callers > 1 ? (", \"callers\": " + std::to_string(callers)).c_str() : "",
      Ort::GetVersionString().c_str(), static_cast<long long>(load_ns), rounds.c_str());
  return 0;
}
