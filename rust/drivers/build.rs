//! Tells the drivers the versions they report: the Rust compiler's (for
//! rust-handwritten) and the runtime crates' as Cargo.lock pins them, so that
//! no version is written twice. Shared by both workspaces (rust/ and
//! rust/burn/): the lock is the nearest one above the package.

use std::path::Path;
use std::process::Command;

/// Crates whose locked version a driver reports, as CALLBENCH_VERSION_<NAME>.
const CRATES: [&str; 6] = ["ort", "tract-onnx", "candle-core", "tch", "torch-sys", "burn"];

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let lock = Path::new(&manifest_dir)
        .ancestors()
        .map(|dir| dir.join("Cargo.lock"))
        .find(|lock| lock.is_file())
        .unwrap_or_else(|| Path::new(&manifest_dir).join("Cargo.lock"));
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-env-changed=CALLBENCH_LIBTORCH_VERSION");

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    println!("cargo:rustc-env=CALLBENCH_RUSTC_VERSION={version}");

    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    for name in CRATES {
        let version = locked_version(&text, name).unwrap_or("unknown");
        let key = name.to_uppercase().replace('-', "_");
        println!("cargo:rustc-env=CALLBENCH_VERSION_{key}={version}");
    }
    // The LibTorch the tch drivers were built against (set by scripts/build_rust.py).
    let libtorch = std::env::var("CALLBENCH_LIBTORCH_VERSION").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=CALLBENCH_LIBTORCH_VERSION={libtorch}");

    // The tch binaries find LibTorch's libraries through their RPATH (a stable
    // symlink that build_rust.py points at the torch wheel's lib/).
    println!("cargo:rerun-if-env-changed=CALLBENCH_LIBTORCH_LIB");
    if let (Ok(lib), Ok(_)) =
        (std::env::var("CALLBENCH_LIBTORCH_LIB"), std::env::var("CARGO_FEATURE_TCH"))
    {
        for bin in ["rust-tch", "rust-tch-torchscript"] {
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,-rpath,{lib}");
        }
    }
}

/// The version of package `name` in Cargo.lock's `[[package]]` entries.
fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let next = lines.next()?.trim();
            return next.strip_prefix("version = \"")?.strip_suffix('"');
        }
    }
    None
}
