//! Writing `--outputs` (each output in its dtype, one after another) and
//! `--latencies` (int64), little-endian raw arrays.

use std::path::Path;

use crate::errors::{Error, Result};

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::data(path, format!("cannot write: {e}")))
}

/// `--outputs`: each output's bytes, one after another (the contract's order).
pub fn write_outputs(path: &Path, outputs: &[&[u8]]) -> Result<()> {
    write_bytes(path, &outputs.concat())
}

pub fn write_int64s(path: &Path, values: &[i64]) -> Result<()> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    write_bytes(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::testing::scratch_dir;

    #[test]
    fn little_endian_files() {
        let dir = scratch_dir();
        let outputs = dir.join("o.bin");
        let (floats, ints) = (1.0_f32.to_le_bytes(), (-2_i64).to_le_bytes());
        write_outputs(&outputs, &[&floats, &ints]).unwrap();
        assert_eq!(std::fs::read(&outputs).unwrap(), [&floats[..], &ints[..]].concat());

        let ints = dir.join("l.i64");
        write_int64s(&ints, &[7, 1 << 40]).unwrap();
        let bytes = std::fs::read(&ints).unwrap();
        assert_eq!(bytes.len(), 16);
        assert_eq!(i64::from_le_bytes(bytes[8..].try_into().unwrap()), 1 << 40);
    }

    #[test]
    fn unwritable_path_names_the_file() {
        let e = write_outputs(Path::new("/nonexistent/dir/o.f32"), &[&[0; 4]]).unwrap_err();
        assert_eq!(e.kind, Kind::Data);
        assert!(e.message.starts_with("/nonexistent/dir/o.f32: cannot write"), "{}", e.message);
    }
}
