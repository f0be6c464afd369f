//! rust-tch-torchscript: `tch::CModule` on mlp_torchscript.pt (TorchScript
//! saved by the torch that exported the models, or traced from a user's
//! `--torch` program, whose signature the file carries). Each call copies each
//! input's samples into a tensor, runs `forward` without autograd and copies
//! each output out. Its callers (contract 4) share the module (`CModule` is
//! `Sync`; a TorchScript module's forward may be called from many threads, as
//! cpp-torchscript-reuse's callers do), each turning autograd off on its own
//! thread.

use std::path::PathBuf;
use std::process::ExitCode;

use callbench_drivers::tch_support::{
    self, NoGradOnCaller, batch_shape, kind_of, torchscript_signature,
};
use callbench_kit::inputs::require_file;
use callbench_kit::tensors::check_references;
use callbench_kit::{
    Error, Holding, Holds, Notes, Options, Result, ResultExt, Signature, TakesCallers, TensorModel,
};
use tch::{CModule, IValue, Kind, Tensor};

struct TorchScriptModel {
    module: CModule,
    path: PathBuf,
    signature: Signature,
    /// Each input's `[batch, *shape]` and kind.
    input_shapes: Vec<Vec<i64>>,
    kinds: Vec<Kind>,
    _no_grad: tch::NoGradGuard,
}

impl TorchScriptModel {
    fn input(&self, k: usize, bytes: &[u8]) -> Tensor {
        Tensor::from_data_size(bytes, &self.input_shapes[k], self.kinds[k])
    }

    /// Every output of one forward: a tensor, or a tuple or list of them.
    fn forward(&self, inputs: &[&[u8]]) -> Result<Vec<Tensor>> {
        let args: Vec<IValue> =
            inputs.iter().enumerate().map(|(k, b)| IValue::Tensor(self.input(k, b))).collect();
        let not_tensors =
            |what: &str| Error::data(&self.path, format!("forward returns {what}, not tensors"));
        match self.module.forward_is(&args).data_err_while(&self.path, "forward")? {
            IValue::Tensor(y) => Ok(vec![y]),
            IValue::TensorList(ys) => Ok(ys),
            IValue::Tuple(items) | IValue::GenericList(items) => items
                .into_iter()
                .map(|item| match item {
                    IValue::Tensor(y) => Ok(y),
                    _ => Err(not_tensors("a tuple holding something else")),
                })
                .collect(),
            _ => Err(not_tensors("something else")),
        }
    }
}

impl TorchScriptModel {
    /// One call, through `&self`: what every caller does.
    #[inline(always)]
    fn call_shared(&self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        if let ([input], [output]) = (inputs, &mut *outputs) {
            // One input and one output (our MLP): no IValue or Vec per call.
            let y = self.module.forward_ts(&[self.input(0, input)]);
            let y = y.data_err_while(&self.path, "forward")?;
            y.copy_data_u8(output, y.numel());
            return Ok(());
        }
        for (y, output) in self.forward(inputs)?.iter().zip(outputs.iter_mut()) {
            y.copy_data_u8(output, y.numel());
        }
        Ok(())
    }
}

impl TensorModel for TorchScriptModel {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        self.call_shared(inputs, outputs)
    }

    fn runtime_version(&self) -> String {
        tch_support::LIBTORCH_VERSION.to_string()
    }

    fn notes(&self) -> Notes {
        tch_support::notes(
            "Tensor::from_data_size copy of each input + CModule::forward (eval, no_grad) \
             + copy_data_u8 of each output",
        )
    }
}

/// A caller of the one module (contract 4), autograd off on its thread.
struct TorchScriptCaller<'a> {
    model: &'a TorchScriptModel,
    no_grad: NoGradOnCaller,
}

impl TensorModel for TorchScriptCaller<'_> {
    fn signature(&self) -> &Signature {
        &self.model.signature
    }

    fn call(&mut self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<()> {
        self.no_grad.enter();
        self.model.call_shared(inputs, outputs)
    }

    fn runtime_version(&self) -> String {
        self.model.runtime_version()
    }
}

impl TakesCallers for TorchScriptModel {
    type Caller<'a> = TorchScriptCaller<'a>;

    fn caller(&self) -> Result<TorchScriptCaller<'_>> {
        Ok(TorchScriptCaller { model: self, no_grad: NoGradOnCaller::default() })
    }

    fn holding(&self) -> Holding {
        let how =
            "one CModule (Sync), forward called by every caller, each with no_grad on its thread";
        Holding { holds: Holds::Shared, how: how.into() }
    }
}

fn load(options: &Options) -> Result<TorchScriptModel> {
    tch_support::set_threads(options)?;
    let path = tch_support::trace_for(options, "mlp_torchscript.pt")?;
    require_file(&path)?;
    let signature = torchscript_signature(&path)?;
    let no_grad = tch::no_grad_guard();
    let mut module = CModule::load(&path).data_err_while(&path, "does not load as TorchScript")?;
    module.set_eval();
    let batch = options.batch as usize;
    let model = TorchScriptModel {
        module,
        input_shapes: signature.inputs.iter().map(|t| batch_shape(t, batch)).collect(),
        kinds: signature.inputs.iter().map(|t| kind_of(t.dtype)).collect(),
        path,
        signature,
        _no_grad: no_grad,
    };
    // One call on zeros: each output's count, kind and shape, checked once.
    let zeros: Vec<Vec<u8>> =
        model.signature.inputs.iter().map(|t| vec![0; batch * t.sample_bytes()]).collect();
    let views: Vec<&[u8]> = zeros.iter().map(Vec::as_slice).collect();
    let outputs = model.forward(&views)?;
    if outputs.len() != model.signature.outputs.len() {
        return Err(Error::data(
            &model.path,
            format!(
                "forward returns {} tensors, {} names {}",
                outputs.len(),
                tch_support::SIGNATURE_FILE,
                model.signature.outputs.len()
            ),
        ));
    }
    for (k, (y, tensor)) in outputs.iter().zip(&model.signature.outputs).enumerate() {
        if y.kind() != kind_of(tensor.dtype) || y.size() != batch_shape(tensor, batch) {
            return Err(Error::data(
                &model.path,
                format!(
                    "output {k} is {:?} {:?}, expected {} for each of {batch} samples",
                    y.kind(),
                    y.size(),
                    tensor.describe()
                ),
            ));
        }
    }
    check_references(&model.path, &options.models, &model.signature)?;
    Ok(model)
}

fn main() -> ExitCode {
    callbench_kit::driver_main_callers(env!("CARGO_BIN_NAME"), load)
}
