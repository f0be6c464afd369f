#include "callbench/options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

std::int64_t parse_count(const std::string& name, std::string_view text, std::int64_t minimum) {
  std::int64_t value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw UsageError(name + " needs an integer, got '" + std::string(text) + "'");
  }
  if (value < minimum) {
    throw UsageError(name + " must be >= " + std::to_string(minimum) + ", got " +
                     std::to_string(value));
  }
  return value;
}

// Seconds: a plain decimal number in [0, 1e6] (no inf or nan).
double parse_seconds(const std::string& name, std::string_view text) {
  double value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    throw UsageError(name + " needs a number, got '" + std::string(text) + "'");
  }
  if (value < 0 || value > 1e6) {
    throw UsageError(name + " must be in 0..1000000, got " + std::string(text));
  }
  return value;
}

// CLI11 parses; the values are checked, and its errors worded, the contract's way.
class Parser {
 public:
  explicit Parser(Options& options) {
    app_.set_help_flag();  // CLI11's own help text is not the contract's line
    app_.allow_extras();   // collected, then the first is named by parse
    count("--calls", options.calls, 1);
    count("--warmup", options.warmup, 0);
    option("--warmup-time", [&options](const std::string& text) {
      options.warmup_time = parse_seconds("--warmup-time", text);
    });
    count("--repeats", options.repeats, 1);
    count("--batch", options.batch, 1);
    count("--threads", options.threads, 1);
    count("--callers", options.callers, 1);
    option("--max-delay", [&options](const std::string& text) {
      options.max_delay_us = parse_count("--max-delay", text, 0);
    });
    path("--models", "a folder", [&options](const std::string& v) { options.models = v; });
    path("--outputs", "a path", [&options](const std::string& v) { options.outputs = v; });
    path("--latencies", "a path", [&options](const std::string& v) { options.latencies = v; });
    app_.add_flag("--gathered", options.gathered)->disable_flag_override();
    app_.add_flag("--serve", options.serve)->disable_flag_override();
    app_.add_flag("--debug", options.debug)->disable_flag_override();
    app_.add_flag("--help", options.help)->disable_flag_override();
  }

  // args in order, without the program name.
  void parse(std::span<const std::string_view> args) {
    // CLI11 pops its arguments from the back. It reads "--calls=" as
    // "--calls" with no value; to the kits it is the empty value.
    std::vector<std::string> reversed;
    for (auto arg = args.rbegin(); arg != args.rend(); ++arg) {
      if (arg->starts_with("--") && arg->size() > 2 && arg->ends_with('=')) {
        reversed.emplace_back();
        reversed.emplace_back(arg->substr(0, arg->size() - 1));
      } else {
        reversed.emplace_back(*arg);
      }
    }
    try {
      app_.parse(reversed);
    } catch (const CLI::ArgumentMismatch& e) {
      throw UsageError(mismatch_problem(e.what()));
    } catch (const CLI::ParseError& e) {
      throw UsageError(e.what());
    }
    if (const std::vector<std::string> extras = app_.remaining(); !extras.empty()) {
      const std::string& first = extras.front();
      throw UsageError("unknown option '" + first.substr(0, first.find('=')) + "'");
    }
  }

 private:
  // The last value given wins, as a shell user expects of a repeated option.
  CLI::Option* option(const std::string& name, std::function<void(const std::string&)> take) {
    return app_.add_option_function<std::string>(name, std::move(take))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }

  void count(const std::string& name, std::int64_t& into, std::int64_t minimum) {
    option(name, [name, &into, minimum](const std::string& text) {
      into = parse_count(name, text, minimum);
    });
  }

  void path(const std::string& name, const std::string& what,
            std::function<void(const std::string&)> take) {
    option(name, [name, what, take = std::move(take)](const std::string& text) {
      if (text.empty()) throw UsageError(name + " needs " + what);
      take(text);
    });
  }

  // CLI11 words a missing value "--calls: 1 required TEXT missing" and a
  // flag's value "serve was given a disallowed flag override".
  std::string mismatch_problem(const std::string& what) const {
    std::string name = what.substr(0, what.find_first_of(": "));
    name = "--" + name.substr(name.find_first_not_of('-'));
    const CLI::Option* option = app_.get_option_no_throw(name);
    const bool flag = option != nullptr && option->get_items_expected_max() == 0;
    return name + (flag ? " takes no value" : " needs a value");
  }

  CLI::App app_{"a callbench driver", "driver"};
};

}  // namespace

std::string help_line(std::string_view id) {
  return "usage: " + std::string(id) +
         " [--models DIR] [--calls N] [--warmup W] [--warmup-time S] [--repeats R] [--batch B]"
         " [--threads T] [--callers N] [--max-delay US] [--gathered] [--outputs PATH]"
         " [--latencies PATH] [--serve] [--debug]";
}

Options parse_options(std::span<const std::string_view> args) {
  Options options;
  Parser(options).parse(args);
  if (options.gathered && !options.max_delay_us) throw UsageError(std::string(kGatheredAlone));
  // calls * batch floats must be addressable; the input check bounds it further.
  if (options.calls > std::numeric_limits<std::int64_t>::max() / 2 / options.batch) {
    throw UsageError("--calls x --batch is too large");
  }
  return options;
}

Options parse_options(int argc, const char* const* argv) {
  std::vector<std::string_view> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return parse_options(std::span<const std::string_view>(args));
}

}  // namespace callbench
