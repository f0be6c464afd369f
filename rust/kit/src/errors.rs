//! The two kinds of failure the contract distinguishes, their one-line
//! messages and exit statuses, and the guard that keeps panics and library
//! errors from reaching the user as anything else.

use std::fmt::{self, Display};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

/// Usage errors exit 2, data errors exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The driver was invoked wrongly: a bad option or command, too few samples.
    Usage,
    /// A file or the runtime failed: missing, malformed, does not load, fails a call.
    Data,
}

/// One error of a driver: its kind, one line for stderr, and (for `--debug`)
/// the library's full text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub detail: Option<String>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn usage(message: impl Into<String>) -> Self {
        Self { kind: Kind::Usage, message: first_line(&message.into()), detail: None }
    }

    /// A problem with the file at `path`: "<path>: <problem>".
    pub fn data(path: &Path, problem: impl Display) -> Self {
        Self::failure(format!("{}: {problem}", path.display()))
    }

    /// A data error whose message names its subject itself (e.g. an unset variable).
    pub fn failure(message: impl Into<String>) -> Self {
        Self { kind: Kind::Data, message: first_line(&message.into()), detail: None }
    }

    /// Keeps a library's full (often multi-line) text for `--debug`.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub fn exit_code(&self) -> u8 {
        match self.kind {
            Kind::Usage => 2,
            Kind::Data => 1,
        }
    }

    /// The contract's stderr line: "<id>: usage: ..." or "<id>: error: ...".
    pub fn line(&self, id: &str) -> String {
        let word = match self.kind {
            Kind::Usage => "usage",
            Kind::Data => "error",
        };
        format!("{id}: {word}: {}", self.message)
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Turns a library's error into a data error about `path`.
pub trait ResultExt<T> {
    /// "<path>: <the library's message>".
    fn data_err(self, path: &Path) -> Result<T>;
    /// "<path>: <doing>: <the library's message>".
    fn data_err_while(self, path: &Path, doing: &str) -> Result<T>;
}

impl<T, E: Display + fmt::Debug> ResultExt<T> for std::result::Result<T, E> {
    fn data_err(self, path: &Path) -> Result<T> {
        // `{:#}` shows anyhow's whole chain of causes on one line ("a: b: c").
        self.map_err(|e| Error::data(path, format!("{e:#}")).with_detail(format!("{e:?}")))
    }

    fn data_err_while(self, path: &Path, doing: &str) -> Result<T> {
        self.map_err(|e| Error::data(path, format!("{doing}: {e:#}")).with_detail(format!("{e:?}")))
    }
}

/// The first non-empty line of a (possibly multi-line) message, trimmed.
pub fn first_line(text: &str) -> String {
    text.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or("unknown error").to_string()
}

/// What the panic hook saw of the last panic: its message and location.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs `body` and turns its outcome into the process's exit: 0, or the
/// error's one line on stderr and its status. A panic becomes a data error
/// ("internal: ..."); with `debug`, the error's detail or the panic's
/// backtrace is printed before that line.
pub fn guarded(id: &str, debug: bool, body: impl FnOnce() -> Result<()>) -> ExitCode {
    panic::set_hook(Box::new(move |info| {
        let message = match info.payload().downcast_ref::<&str>() {
            Some(text) => (*text).to_string(),
            None => info.payload().downcast_ref::<String>().cloned().unwrap_or_default(),
        };
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line()));
        if debug {
            eprintln!("{info}\n{}", std::backtrace::Backtrace::force_capture());
        }
        let text = format!("{message}{}", location.unwrap_or_default());
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
    }));
    let outcome = panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        let seen = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
        Err(Error::failure(format!("internal: panic: {}", seen.unwrap_or_default())))
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            if let (true, Some(detail)) = (debug, &error.detail) {
                eprintln!("{detail}");
            }
            eprintln!("{}", error.line(id));
            ExitCode::from(error.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_exit_codes() {
        let usage = Error::usage("unknown option '--x'");
        assert_eq!(usage.line("rust-x"), "rust-x: usage: unknown option '--x'");
        assert_eq!(usage.exit_code(), 2);
        let data = Error::data(Path::new("models/mlp.onnx"), "missing");
        assert_eq!(data.line("rust-x"), "rust-x: error: models/mlp.onnx: missing");
        assert_eq!(data.exit_code(), 1);
    }

    #[test]
    fn messages_stay_one_line() {
        assert_eq!(first_line("\n  first  \nsecond"), "first");
        assert_eq!(first_line(""), "unknown error");
        let err: std::result::Result<(), String> = Err("bad\nmore".into());
        let e = err.data_err(Path::new("p")).unwrap_err();
        assert_eq!(e.message, "p: bad");
        assert!(e.detail.unwrap().contains("more"));
    }
}
