//! The contract's command-line options, declared once for every Rust driver
//! (parsed by clap; its errors become the contract's one-line usage errors).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Parser;

use crate::batcher::{GATHERED_ALONE, ONE_GATHERER};
use crate::errors::{Error, Result};

/// What a driver that runs one caller answers to `--callers N` > 1 (contract 4).
pub const ONE_CALLER: &str = "--callers N > 1 is not supported: this driver runs one caller";

/// How many calls the standalone script's latency pass times one by one.
pub const STANDALONE_LATENCY_CALLS: u64 = 100_000;

#[derive(Parser, Debug, Clone, PartialEq)]
#[command(
    about = "A callbench driver: times calls of the 2-8-8-1 MLP (see docs/contract.md)",
    disable_version_flag = true,
    disable_help_flag = true
)]
pub struct Options {
    /// Artifacts folder
    #[arg(long, value_name = "DIR", default_value = "models", value_parser = path)]
    pub models: PathBuf,
    /// Calls a round may take at most, and the calls of a standalone repeat
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = at_least_1,
          allow_negative_numbers = true)]
    pub calls: u64,
    /// Untimed calls after loading, at most
    #[arg(long, value_name = "W", default_value_t = 10_000, value_parser = at_least_0,
          allow_negative_numbers = true)]
    pub warmup: u64,
    /// Seconds the warm-up may take once it has made 5 calls (0: no time limit)
    #[arg(long, value_name = "S", default_value_t = 2.0, value_parser = seconds,
          allow_negative_numbers = true)]
    pub warmup_time: f64,
    /// Standalone runs only: rounds of N calls back to back
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = at_least_1,
          allow_negative_numbers = true)]
    pub repeats: u64,
    /// Samples per call
    #[arg(long, value_name = "B", default_value_t = 1, value_parser = at_least_1,
          allow_negative_numbers = true)]
    pub batch: u64,
    /// Intra-op threads for the runtime
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = at_least_1,
          allow_negative_numbers = true)]
    pub threads: u64,
    /// Contract 4: callers calling the model at once (a driver that runs one refuses more)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_1,
          allow_negative_numbers = true)]
    pub callers: u64,
    /// Contract 7: a paced round served by a batcher of up to --batch arrivals a
    /// call, the oldest it holds waiting at most this many µs (Triton's
    /// max_queue_delay_microseconds: batcher.rs); one caller only
    #[arg(long, value_name = "US", value_parser = at_least_0, allow_negative_numbers = true)]
    pub max_delay: Option<u64>,
    /// ... each of its calls at the size it gathered, not padded to B (a model whose
    /// runtime takes a changing batch: `TensorModel::TAKES_GATHERED`)
    #[arg(long)]
    pub gathered: bool,
    /// Write the last round's outputs here (float32 LE)
    #[arg(long, value_name = "PATH", value_parser = path)]
    pub outputs: Option<PathBuf>,
    /// Where per-call durations go (int64 LE ns each)
    #[arg(long, value_name = "PATH", value_parser = path)]
    pub latencies: Option<PathBuf>,
    /// Take rounds from standard input instead of running --repeats
    #[arg(long)]
    pub serve: bool,
    /// Show the libraries' full errors and panics' backtraces
    #[arg(long)]
    pub debug: bool,
    /// Print the contract's help line and exit 0 (clap's own help is not the contract's)
    #[arg(long)]
    pub help: bool,
}

/// What `--help` prints, the same in every kit (docs/contract.md, "The contract's words").
pub fn help_line(program: &str) -> String {
    format!(
        "usage: {program} [--models DIR] [--calls N] [--warmup W] [--warmup-time S] \
         [--repeats R] [--batch B] [--threads T] [--callers N] [--max-delay US] \
         [--gathered] [--outputs PATH] [--latencies PATH] [--serve] [--debug]"
    )
}

/// What parsing the command line asks the program to do.
#[derive(Debug)]
pub enum Parsed {
    Run(Options),
    /// `--help`: the line to print on stdout before exiting 0.
    Help(String),
}

impl Options {
    /// Parses the arguments after the program name ("--calls 10" or "--calls=10");
    /// `program` (the driver id) names the program in `--help`.
    pub fn parse_args<I, T>(program: &str, args: I) -> Result<Parsed>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let argv = std::iter::once(OsString::from(program)).chain(args.into_iter().map(Into::into));
        match Options::try_parse_from(argv) {
            Ok(options) if options.help => Ok(Parsed::Help(help_line(program) + "\n")),
            Ok(options) => options.checked().map(Parsed::Run),
            Err(e) => Err(Error::usage(clap_problem(&e))),
        }
    }

    fn checked(self) -> Result<Self> {
        if self.max_delay.is_some() && self.callers > 1 {
            return Err(Error::usage(ONE_GATHERER));
        }
        if self.gathered && self.max_delay.is_none() {
            return Err(Error::usage(GATHERED_ALONE));
        }
        // calls * batch samples of 2 floats must be addressable; the input
        // check bounds it further.
        let floats = self.calls.checked_mul(self.batch).and_then(|s| s.checked_mul(2));
        if floats.and_then(|f| usize::try_from(f).ok()).is_none() {
            return Err(Error::usage("--calls x --batch is too large"));
        }
        Ok(self)
    }

    /// Calls of the standalone latency pass: min(N, 100000).
    pub fn latency_calls(&self) -> u64 {
        self.calls.min(STANDALONE_LATENCY_CALLS)
    }

    /// Whether `--debug` is among raw arguments, for errors raised before
    /// (or while) the options parse.
    pub fn debug_requested<T: AsRef<std::ffi::OsStr>>(args: &[T]) -> bool {
        args.iter().any(|a| a.as_ref() == "--debug")
    }
}

/// clap's error in the contract's words; else its first line without "error: ".
fn clap_problem(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let said = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    // clap names an option "--calls <N>", or as given ("--frob=1").
    let option = said(ContextKind::InvalidArg).and_then(|a| a.split([' ', '=']).next());
    let why = std::error::Error::source(error);
    match (error.kind(), option, why) {
        (ErrorKind::UnknownArgument, Some(name), _) => format!("unknown option '{name}'"),
        (ErrorKind::ValueValidation, Some(name), Some(why)) => format!("{name} {why}"),
        (ErrorKind::InvalidValue, Some(name), _) if said(ContextKind::InvalidValue) == Some("") => {
            format!("{name} needs a value")
        }
        _ => {
            let text = error.render().to_string();
            let line = crate::errors::first_line(&text);
            line.strip_prefix("error: ").unwrap_or(&line).to_string()
        }
    }
}

fn count(text: &str, minimum: u64) -> std::result::Result<u64, String> {
    let value: i128 = text.parse().map_err(|_| format!("needs an integer, got '{text}'"))?;
    if value < i128::from(minimum) {
        return Err(format!("must be >= {minimum}, got {value}"));
    }
    u64::try_from(value).map_err(|_| format!("is too large: {value}"))
}

/// Seconds: a plain decimal number in 0..=1e6 (no inf or nan).
fn seconds(text: &str) -> std::result::Result<f64, String> {
    let value: f64 = text.parse().map_err(|_| format!("needs a number, got '{text}'"))?;
    if !value.is_finite() {
        return Err(format!("needs a number, got '{text}'"));
    }
    if !(0.0..=1e6).contains(&value) {
        return Err(format!("must be in 0..1000000, got {text}"));
    }
    Ok(value)
}

fn at_least_0(text: &str) -> std::result::Result<u64, String> {
    count(text, 0)
}

fn at_least_1(text: &str) -> std::result::Result<u64, String> {
    count(text, 1)
}

fn path(text: &str) -> std::result::Result<PathBuf, String> {
    if text.is_empty() {
        return Err("needs a path".into());
    }
    Ok(PathBuf::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;

    fn parse(args: &[&str]) -> Result<Options> {
        match Options::parse_args("rust-test", args.iter().copied())? {
            Parsed::Run(options) => Ok(options),
            Parsed::Help(_) => panic!("help"),
        }
    }

    fn usage_message(args: &[&str]) -> String {
        let error = parse(args).unwrap_err();
        assert_eq!(error.kind, Kind::Usage, "{args:?}");
        assert!(!error.message.contains('\n'));
        error.message
    }

    #[test]
    fn defaults_follow_the_contract() {
        let o = parse(&[]).unwrap();
        assert_eq!(o.models, PathBuf::from("models"));
        assert_eq!(
            (o.calls, o.warmup, o.repeats, o.batch, o.threads),
            (1_000_000, 10_000, 3, 1, 1)
        );
        assert_eq!(o.warmup_time, 2.0);
        assert_eq!((o.outputs, o.latencies, o.serve, o.debug), (None, None, false, false));
    }

    #[test]
    fn both_spellings_of_a_value() {
        let o =
            parse(&["--calls", "10", "--batch=4", "--models=m", "--outputs", "o.f32", "--serve"])
                .unwrap();
        assert_eq!((o.calls, o.batch), (10, 4));
        assert_eq!(o.models, PathBuf::from("m"));
        assert_eq!(o.outputs, Some(PathBuf::from("o.f32")));
        assert!(o.serve);
        assert_eq!(o.latency_calls(), 10);
    }

    #[test]
    fn bad_values_are_usage_errors() {
        assert_eq!(usage_message(&["--calls", "0"]), "--calls must be >= 1, got 0");
        assert_eq!(usage_message(&["--warmup", "x"]), "--warmup needs an integer, got 'x'");
        assert_eq!(usage_message(&["--calls"]), "--calls needs a value");
        assert_eq!(usage_message(&["--frob", "1"]), "unknown option '--frob'");
        assert_eq!(usage_message(&["--frob=1"]), "unknown option '--frob'");
        assert_eq!(usage_message(&["--batc", "2"]), "unknown option '--batc'");
        assert_eq!(usage_message(&["stray"]), "unknown option 'stray'");
        assert!(usage_message(&["--warmup", "-1"]).contains("must be >= 0"));
        assert!(usage_message(&["--threads", "two"]).contains("needs an integer"));
        assert!(usage_message(&["--repeats"]).contains("--repeats"));
        assert!(usage_message(&["--frobnicate"]).contains("--frobnicate"));
        assert!(usage_message(&["--models="]).contains("needs a path"));
        assert!(usage_message(&["--debug=yes"]).contains("--debug"));
        assert!(
            usage_message(&["--calls", "4611686018427387904", "--batch", "4"])
                .contains("too large")
        );
        assert!(parse(&["--warmup", "0"]).is_ok());
        assert_eq!(parse(&["--warmup-time=0.25"]).unwrap().warmup_time, 0.25);
        assert!(usage_message(&["--warmup-time", "x"]).contains("needs a number, got 'x'"));
        assert!(usage_message(&["--warmup-time", "inf"]).contains("needs a number"));
        assert!(usage_message(&["--warmup-time", "-1"]).contains("must be in 0..1000000"));
        assert_eq!(usage_message(&["--callers", "0"]), "--callers must be >= 1, got 0");
        assert_eq!(usage_message(&["--max-delay", "-1"]), "--max-delay must be >= 0, got -1");
        assert_eq!(usage_message(&["--max-delay", "100", "--callers", "2"]), ONE_GATHERER);
        assert_eq!(usage_message(&["--gathered"]), GATHERED_ALONE);
        assert_eq!(parse(&["--max-delay", "100"]).unwrap().max_delay, Some(100));
    }

    #[test]
    fn one_caller_is_the_default_and_more_are_parsed() {
        // Whether a driver takes more than one is its entry's to say (driver_main).
        for (args, callers) in
            [(&[][..], 1), (&["--callers", "1"][..], 1), (&["--callers=3"][..], 3)]
        {
            match Options::parse_args("rust-test", args.iter().copied()).unwrap() {
                Parsed::Run(options) => assert_eq!(options.callers, callers),
                Parsed::Help(_) => panic!("expected a run"),
            }
        }
    }

    #[test]
    fn help_is_not_an_error() {
        match Options::parse_args("rust-test", ["--help"]).unwrap() {
            Parsed::Help(text) => assert_eq!(text, help_line("rust-test") + "\n"),
            Parsed::Run(_) => panic!("expected help"),
        }
    }

    #[test]
    fn debug_is_seen_before_parsing() {
        assert!(Options::debug_requested(&["--calls", "x", "--debug"]));
        assert!(!Options::debug_requested(&["--calls", "1"]));
    }
}
