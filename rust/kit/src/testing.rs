//! What the unit tests share: scratch files in a folder of this test process, samples, a sum model.

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

/// Our MLP's inputs as the one input's samples (2 floats a sample).
pub fn float_samples(values: &[f32]) -> Vec<crate::tensors::Samples> {
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut bytes = crate::tensors::Bytes::zeroed(raw.len());
    bytes.copy_from_slice(&raw);
    vec![crate::tensors::Samples { bytes, count: values.len() / 2 }]
}

/// y = x0 + x1 per sample (our MLP's shapes); counts its calls.
pub struct Sum {
    pub calls: usize,
}

impl crate::model::Model for Sum {
    fn call(&mut self, input: &[f32], output: &mut [f32]) -> crate::errors::Result<()> {
        self.calls += 1;
        for (y, x) in output.iter_mut().zip(input.chunks_exact(2)) {
            *y = x[0] + x[1];
        }
        Ok(())
    }
    fn runtime_version(&self) -> String {
        "test".into()
    }
}
