//! Scratch files for the unit tests, in a folder of this test process.

use std::path::PathBuf;

pub fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("callbench-kit-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

/// Writes `bytes` to a new file `name` in the scratch folder.
pub fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch_dir().join(name);
    std::fs::write(&path, bytes).expect("temp dir is writable");
    path
}
