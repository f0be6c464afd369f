//! Checking that the inputs hold the samples a run needs (they are read by
//! their signature: `tensors::read_inputs`), and reading our MLP's float32
//! artifacts: `mlp_weights.f32` (the weights, for runtimes that cannot read a
//! pickle).

use std::path::{Path, PathBuf};

use crate::errors::{Error, Result};
use crate::options::Options;

/// Floats per sample in our MLP's inputs.f32.
pub const INPUT_WIDTH: usize = 2;
/// Floats per sample in the outputs.
pub const OUTPUT_WIDTH: usize = 1;

/// The error for an artifact that is not there.
pub fn missing_artifact(path: &Path) -> Error {
    Error::data(path, "missing; run `nox -s export` first")
}

/// Fails with [`missing_artifact`] unless `path` is a regular file.
pub fn require_file(path: &Path) -> Result<()> {
    if path.is_file() { Ok(()) } else { Err(missing_artifact(path)) }
}

/// The whole file as little-endian float32 records of `width` floats, every
/// value finite; `what` names one record in messages ("sample").
pub fn read_finite_floats(path: &Path, width: usize, what: &str) -> Result<Vec<f32>> {
    require_file(path)?;
    let bytes = std::fs::read(path).map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
    let record = 4 * width;
    if bytes.len() % record != 0 {
        return Err(Error::data(
            path,
            format!(
                "size {} bytes is not a whole number of {what}s ({record} bytes each)",
                bytes.len()
            ),
        ));
    }
    let values: Vec<f32> =
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(Error::data(path, format!("{what} {} is NaN or Inf", i / width)));
    }
    Ok(values)
}

/// A usage error unless `path`'s `samples` are the calls x batch samples the run needs.
pub fn require_samples(path: &Path, samples: usize, calls: u64, batch: u64) -> Result<()> {
    let needed = u128::from(calls) * u128::from(batch);
    if needed > samples as u128 {
        return Err(Error::usage(format!(
            "--calls {calls} x --batch {batch} needs {needed} samples but {} holds {samples}",
            path.display()
        )));
    }
    Ok(())
}

/// The reference model's hidden width (2 -> 8 -> 8 -> 1); the family's wider
/// models (2 -> H -> H -> 1) keep the architecture, and a driver takes H from
/// the size of the weights it reads.
pub const REFERENCE_HIDDEN: usize = 8;

/// Floats in mlp_weights.f32 for hidden width H: 2H + H + H*H + H + H + 1.
pub const fn weight_count(hidden: usize) -> usize {
    hidden * hidden + 5 * hidden + 1
}

/// The hidden width whose weights have `count` floats, if any has.
pub fn hidden_of_count(count: usize) -> Option<usize> {
    // H = (sqrt(21 + 4 count) - 5) / 2, checked exactly around the float root.
    let root = (21.0 + 4.0 * count as f64).sqrt() as usize;
    (root.saturating_sub(1)..=root + 1)
        .filter(|r| *r > 5 && (r - 5) % 2 == 0)
        .map(|r| (r - 5) / 2)
        .find(|&hidden| weight_count(hidden) == count)
}

/// The MLP's weights in the contract's key order; each `W` is `[out, in]` row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct MlpWeights {
    pub hidden: usize,
    pub a_weight: Vec<f32>,
    pub a_bias: Vec<f32>,
    pub b_weight: Vec<f32>,
    pub b_bias: Vec<f32>,
    pub c_weight: Vec<f32>,
    pub c_bias: Vec<f32>,
}

impl MlpWeights {
    /// `<models>/mlp_weights.f32`.
    pub fn path(options: &Options) -> PathBuf {
        options.models.join("mlp_weights.f32")
    }

    /// Reads the floats and takes the hidden width from their count; a data
    /// error if the file is missing, holds a count no width has, or holds NaN/Inf.
    pub fn read(path: &Path) -> Result<Self> {
        let values = read_finite_floats(path, 1, "weight")?;
        let Some(hidden) = hidden_of_count(values.len()) else {
            return Err(Error::data(
                path,
                format!(
                    "holds {} floats, which is no 2-H-H-1 MLP's count (H*H + 5H + 1; {} for H = 8)",
                    values.len(),
                    weight_count(REFERENCE_HIDDEN)
                ),
            ));
        };
        let mut rest = values.as_slice();
        let mut take = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        };
        Ok(Self {
            hidden,
            a_weight: take(hidden * INPUT_WIDTH),
            a_bias: take(hidden),
            b_weight: take(hidden * hidden),
            b_bias: take(hidden),
            c_weight: take(OUTPUT_WIDTH * hidden),
            c_bias: take(OUTPUT_WIDTH),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Kind;
    use crate::testing::scratch_file;

    fn floats(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn reads_samples() {
        let path = scratch_file("inputs-ok.f32", &floats(&[1.0, 2.0, 3.0, 4.0]));
        let values = read_finite_floats(&path, INPUT_WIDTH, "sample").unwrap();
        assert_eq!(values, vec![1.0, 2.0, 3.0, 4.0]);
        assert!(require_samples(&path, 2, 2, 1).is_ok());
        assert!(require_samples(&path, 2, 1, 2).is_ok());
    }

    #[test]
    fn size_not_a_whole_number_of_samples() {
        let path = scratch_file("inputs-odd.f32", &floats(&[1.0, 2.0, 3.0]));
        let e = read_finite_floats(&path, INPUT_WIDTH, "sample").unwrap_err();
        assert_eq!(e.kind, Kind::Data);
        assert!(e.message.contains("not a whole number of samples"), "{}", e.message);
        assert!(e.message.starts_with(&path.display().to_string()));
    }

    #[test]
    fn too_few_samples_is_a_usage_error() {
        let path = scratch_file("inputs-few.f32", &floats(&[1.0, 2.0, 3.0, 4.0]));
        let e = require_samples(&path, 2, 3, 1).unwrap_err();
        assert_eq!(e.kind, Kind::Usage);
        assert!(e.message.contains("needs 3 samples"), "{}", e.message);
        let e = require_samples(&path, 2, 2, 2).unwrap_err();
        assert!(e.message.contains("needs 4 samples"), "{}", e.message);
    }

    #[test]
    fn nan_or_inf_is_a_data_error() {
        for bad in [f32::NAN, f32::INFINITY] {
            let path = scratch_file("inputs-nan.f32", &floats(&[1.0, 2.0, 3.0, bad]));
            let e = read_finite_floats(&path, INPUT_WIDTH, "sample").unwrap_err();
            assert_eq!(e.kind, Kind::Data);
            assert!(e.message.contains("sample 1 is NaN or Inf"), "{}", e.message);
        }
    }

    #[test]
    fn missing_file() {
        let e = read_finite_floats(Path::new("/nonexistent/inputs.f32"), INPUT_WIDTH, "sample")
            .unwrap_err();
        assert_eq!(e.message, "/nonexistent/inputs.f32: missing; run `nox -s export` first");
    }

    #[test]
    fn weights_in_key_order() {
        let values: Vec<f32> = (0..weight_count(8)).map(|i| i as f32).collect();
        let w = MlpWeights::read(&scratch_file("weights.f32", &floats(&values))).unwrap();
        assert_eq!(w.hidden, 8);
        assert_eq!(w.a_weight[0], 0.0);
        assert_eq!(w.a_bias[0], 16.0);
        assert_eq!(w.b_weight[0], 24.0);
        assert_eq!(w.b_bias[0], 88.0);
        assert_eq!(w.c_weight[0], 96.0);
        assert_eq!(w.c_bias[0], 104.0);
        let short = scratch_file("weights-short.f32", &floats(&values[..104]));
        assert!(MlpWeights::read(&short).unwrap_err().message.contains("holds 104 floats"));
    }

    #[test]
    fn the_hidden_width_comes_from_the_float_count() {
        for hidden in [1, 8, 16, 64, 512, 2048] {
            assert_eq!(hidden_of_count(weight_count(hidden)), Some(hidden));
            assert_eq!(hidden_of_count(weight_count(hidden) + 1), None);
        }
        assert_eq!(hidden_of_count(0), None);
        let values = vec![0.5f32; weight_count(16)];
        let w = MlpWeights::read(&scratch_file("weights-16.f32", &floats(&values))).unwrap();
        assert_eq!((w.hidden, w.b_weight.len(), w.c_bias.len()), (16, 256, 1));
    }
}
