//! The command dialogue of `--serve` (one command a line on stdin, one JSON
//! answer a line on stdout: `round K`, `latencies K`, `paced FILE [START]`,
//! `end`) and the standalone script that runs the same commands: `round N` R
//! times, `latencies min(N, 100000)`, `end`.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::errors::{Error, Result};
use crate::options::Options;
use crate::outputs::{write_int64s, write_outputs};
use crate::paced::read_schedule;
use crate::result::{Event, ResultLine, json_line, peak_rss_bytes};
use crate::rounds::{Round, Runner, Warmup};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Round(u64),
    Latencies(u64),
    /// Contract 6: the schedule's file and START (ns on the monotonic clock).
    Paced(PathBuf, Option<i64>),
    End,
}

impl Command {
    /// One line of the dialogue; `None` for a blank line. The range of K is
    /// checked when the command runs (it depends on --calls).
    pub fn parse(line: &str) -> Result<Option<Command>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let count = |name: &str| match words.as_slice() {
            [_, k] => k.parse::<u64>().map_err(|_| {
                Error::usage(format!("bad command '{}': {name} needs a call count", line.trim()))
            }),
            _ => Err(Error::usage(format!("bad command '{}': expected '{name} K'", line.trim()))),
        };
        match words.as_slice() {
            [] => Ok(None),
            ["round", ..] => count("round").map(|k| Some(Command::Round(k))),
            ["latencies", ..] => count("latencies").map(|k| Some(Command::Latencies(k))),
            ["end"] => Ok(Some(Command::End)),
            ["paced", file] => Ok(Some(Command::Paced(file.into(), None))),
            ["paced", file, start] => match start.parse::<i64>() {
                Ok(start) => Ok(Some(Command::Paced(file.into(), Some(start)))),
                Err(_) => Err(Error::usage(format!(
                    "bad command '{}': paced FILE START needs START in ns",
                    line.trim()
                ))),
            },
            _ => Err(Error::usage(format!(
                "unknown command '{}' (expected round K, latencies K, paced FILE [START] or end)",
                line.trim()
            ))),
        }
    }
}

/// A loaded driver answering commands.
pub struct Session<'a, R: Runner, W: Write> {
    id: &'a str,
    options: &'a Options,
    rounds: R,
    load_ns: u64,
    timings: Vec<Round>,
    out: W,
}

impl<'a, R: Runner, W: Write> Session<'a, R, W> {
    /// A session whose model is loaded and warmed up; prints the ready line.
    /// Events (ready, round, latencies) are printed with `--serve` only: a
    /// standalone run prints just the result line.
    pub fn start(
        id: &'a str,
        options: &'a Options,
        rounds: R,
        load_ns: u64,
        warmup: Warmup,
        out: W,
    ) -> Result<Self> {
        let mut session = Self { id, options, rounds, load_ns, timings: Vec::new(), out };
        session.event(Event::Ready {
            load_ns,
            warmup_calls: warmup.calls,
            warmup_ns: warmup.ns,
        })?;
        Ok(session)
    }

    /// Runs one command and prints its answer (with `--serve`); true once the session ended.
    fn execute(&mut self, command: Command) -> Result<bool> {
        match command {
            Command::Round(k) => {
                let timing = self.rounds.round(k)?;
                self.event(Event::from(&timing))?;
                self.timings.push(timing);
            }
            Command::Latencies(k) => {
                let Some(path) = &self.options.latencies else {
                    return Err(Error::usage("latencies K needs --latencies PATH"));
                };
                let durations = self.rounds.latencies(k)?;
                write_int64s(path, &durations)?;
                self.event(Event::Latencies { calls: k })?;
            }
            Command::Paced(schedule, start_ns) => {
                let Some(path) = &self.options.latencies else {
                    return Err(Error::usage("paced FILE needs --latencies PATH"));
                };
                let offsets = read_schedule(&schedule)?;
                let paced = self.rounds.paced(offsets, start_ns)?;
                write_int64s(path, &paced.times)?;
                self.event(Event::Paced(paced))?;
            }
            Command::End => {
                self.end()?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `--serve`: commands from `input` until `end` or end of input.
    pub fn serve(mut self, input: impl BufRead) -> Result<()> {
        for line in input.lines() {
            let line = line.map_err(|e| Error::failure(format!("stdin: {e}")))?;
            if let Some(command) = Command::parse(&line)?
                && self.execute(command)?
            {
                return Ok(());
            }
        }
        self.execute(Command::End).map(|_| ())
    }

    /// Without `--serve`: the standalone script.
    pub fn run_script(mut self) -> Result<()> {
        for command in standalone_script(self.options) {
            self.execute(command)?;
        }
        Ok(())
    }

    /// Writes the last round's outputs and prints the result line.
    fn end(&mut self) -> Result<()> {
        if let Some(path) = &self.options.outputs {
            write_outputs(path, &self.rounds.last_outputs())?;
        }
        let line = ResultLine {
            driver: self.id,
            calls: self.options.calls,
            batch: self.options.batch,
            threads: self.options.threads,
            callers: (self.options.callers > 1).then_some(self.options.callers),
            runtime_version: self.rounds.runtime_version(),
            load_ns: self.load_ns,
            peak_rss_bytes: peak_rss_bytes(),
            rounds: &self.timings,
            notes: self.rounds.notes(),
        };
        self.print(&json_line(&line))
    }

    fn event(&mut self, event: Event) -> Result<()> {
        if self.options.serve { self.print(&json_line(&event)) } else { Ok(()) }
    }

    fn print(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| Error::failure(format!("stdout: {e}")))
    }
}

/// The commands a standalone run executes.
pub fn standalone_script(options: &Options) -> Vec<Command> {
    let mut commands = vec![Command::Round(options.calls); options.repeats as usize];
    if options.latencies.is_some() {
        commands.push(Command::Latencies(options.latency_calls()));
    }
    commands.push(Command::End);
    commands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::float_model::FloatModel;
    use crate::model::Model;
    use crate::options::Parsed;
    use crate::rounds::Rounds;
    use crate::testing::{float_samples, scratch_dir};

    struct Double;

    impl Model for Double {
        fn call(&mut self, input: &[f32], output: &mut [f32]) -> Result<()> {
            output[0] = 2.0 * input[0];
            Ok(())
        }
        fn runtime_version(&self) -> String {
            "0".into()
        }
    }

    fn options(args: &[&str]) -> Options {
        match Options::parse_args("rust-test", args.iter().copied()).unwrap() {
            Parsed::Run(o) => o,
            Parsed::Help(_) => unreachable!(),
        }
    }

    /// `--serve --calls=4` writing its outputs and latencies to these files.
    fn serving_into(outputs: &std::path::Path, latencies: &std::path::Path) -> Options {
        let (outputs, latencies) = (outputs.to_str().unwrap(), latencies.to_str().unwrap());
        options(&["--serve", "--calls=4", "--outputs", outputs, "--latencies", latencies])
    }

    /// Runs a serve dialogue over 4 samples; returns stdout's lines or the error.
    fn dialogue(opts: &Options, input: &str) -> (Vec<String>, Result<()>) {
        let inputs = float_samples(&[1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 0.0]);
        let mut model = FloatModel(Double);
        let mut out = Vec::new();
        let rounds = Rounds::new(&mut model, &inputs, opts.calls, 1);
        let outcome =
            Session::start("rust-test", opts, rounds, 42, Warmup { calls: 3, ns: 9 }, &mut out)
                .and_then(|s| s.serve(input.as_bytes()));
        let text = String::from_utf8(out).unwrap();
        (text.lines().map(String::from).collect(), outcome)
    }

    #[test]
    fn parses_commands() {
        assert_eq!(Command::parse("round 5").unwrap(), Some(Command::Round(5)));
        assert_eq!(Command::parse(" latencies 7 \r").unwrap(), Some(Command::Latencies(7)));
        assert_eq!(Command::parse("end").unwrap(), Some(Command::End));
        assert_eq!(Command::parse("  ").unwrap(), None);
        assert_eq!(
            Command::parse("paced a.i64").unwrap(),
            Some(Command::Paced("a.i64".into(), None))
        );
        assert_eq!(
            Command::parse("paced a.i64 123").unwrap(),
            Some(Command::Paced("a.i64".into(), Some(123)))
        );
    }

    #[test]
    fn serve_answers_a_paced_round_and_writes_its_times() {
        let dir = scratch_dir();
        let (outputs, latencies, schedule) =
            (dir.join("paced.f32"), dir.join("paced.i64"), dir.join("arrivals.i64"));
        std::fs::write(&schedule, [0_i64, 0, 0, 0, 0, 0].map(i64::to_le_bytes).concat()).unwrap();
        let opts = serving_into(&outputs, &latencies);
        let (lines, outcome) = dialogue(&opts, &format!("paced {}\nend\n", schedule.display()));
        outcome.unwrap();
        let answer: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        assert_eq!(answer["event"], "paced");
        assert_eq!((answer["calls"].as_u64(), answer["slots"].as_u64()), (Some(6), Some(4)));
        assert_eq!(answer["caller_calls"], serde_json::json!([6]));
        assert!(answer["ready_ns"].as_i64() < answer["start_ns"].as_i64(), "{answer}");
        assert_eq!(std::fs::read(&latencies).unwrap().len(), 3 * 6 * 8);
        // Six arrivals in 4 slots: each slot's last arrival, with that slot's samples.
        let bytes = std::fs::read(&outputs).unwrap();
        let want: Vec<u8> = [2.0_f32, 4.0, 6.0, 8.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(bytes, want);
        let opts = options(&["--serve", "--calls=4"]);
        let (_, outcome) = dialogue(&opts, &format!("paced {}\n", schedule.display()));
        assert!(outcome.unwrap_err().message.contains("paced FILE needs --latencies"));
        let (_, outcome) = dialogue(&opts, "paced a.i64 soon\n");
        assert!(outcome.unwrap_err().message.contains("needs START in ns"));
    }

    #[test]
    fn bad_commands_are_usage_errors() {
        for bad in ["rounds 5", "round", "round x", "round -1", "round 1 2", "end now", "END"] {
            let e = Command::parse(bad).unwrap_err();
            assert_eq!(e.kind, Kind::Usage, "{bad}");
            assert!(e.message.contains(bad.trim()), "{}", e.message);
        }
    }

    #[test]
    fn serve_answers_each_command() {
        let dir = scratch_dir();
        let (outputs, latencies) = (dir.join("serve.f32"), dir.join("serve.i64"));
        let opts = serving_into(&outputs, &latencies);
        let (lines, outcome) = dialogue(&opts, "round 4\n\nround 2\nlatencies 3\nend\nround 1\n");
        outcome.unwrap();
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert_eq!(lines[0], r#"{"event":"ready","load_ns":42,"warmup_calls":3,"warmup_ns":9}"#);
        assert!(lines[1].starts_with(r#"{"event":"round","calls":4,"ns":"#));
        assert!(lines[2].starts_with(r#"{"event":"round","calls":2,"ns":"#));
        assert_eq!(lines[3], r#"{"event":"latencies","calls":3}"#);
        let result: serde_json::Value = serde_json::from_str(&lines[4]).unwrap();
        assert_eq!(result["driver"], "rust-test");
        assert_eq!(result["rounds"].as_array().unwrap().len(), 2);
        assert_eq!(result["load_ns"], 42);
        // The outputs file holds the last round: 2 calls.
        let bytes = std::fs::read(&outputs).unwrap();
        assert_eq!(bytes, [2.0_f32, 4.0].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
        assert_eq!(std::fs::read(&latencies).unwrap().len(), 3 * 8);
    }

    #[test]
    fn end_of_input_ends_the_session() {
        let (lines, outcome) = dialogue(&options(&["--serve", "--calls=4"]), "round 1\n");
        outcome.unwrap();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with(r#"{"driver":"rust-test""#));
    }

    #[test]
    fn bad_commands_stop_the_dialogue() {
        let opts = options(&["--serve", "--calls=4"]);
        for (input, problem) in [
            ("round 5\n", "out of range"),
            ("round 0\n", "out of range"),
            ("latencies 2\n", "needs --latencies"),
            ("jump\n", "unknown command 'jump'"),
        ] {
            let (lines, outcome) = dialogue(&opts, input);
            let e = outcome.unwrap_err();
            assert_eq!(e.kind, Kind::Usage);
            assert!(e.message.contains(problem), "{input}: {}", e.message);
            assert_eq!(lines.len(), 1, "only the ready line: {lines:?}");
        }
    }

    #[test]
    fn standalone_prints_only_the_result_line() {
        let inputs = float_samples(&[1.0, 0.0, 2.0, 0.0]);
        let opts = options(&["--calls=2", "--repeats=2"]);
        let mut model = FloatModel(Double);
        let mut out = Vec::new();
        let rounds = Rounds::new(&mut model, &inputs, opts.calls, 1);
        Session::start("rust-test", &opts, rounds, 1, Warmup::default(), &mut out)
            .and_then(|s| s.run_script())
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        let result: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(result["rounds"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn standalone_runs_the_script() {
        let opts = options(&["--calls=3", "--repeats=2", "--latencies=x"]);
        let expected = [Command::Round(3), Command::Round(3), Command::Latencies(3), Command::End];
        assert_eq!(standalone_script(&opts), expected);
        let opts = options(&["--calls=200000", "--repeats=1"]);
        assert_eq!(standalone_script(&opts), [Command::Round(200_000), Command::End]);
    }
}
