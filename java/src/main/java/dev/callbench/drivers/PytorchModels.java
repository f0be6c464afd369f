package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.OutputShape;
import dev.callbench.pytorch.LibTorch;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/** Loads the TorchScript model the same way for both org.pytorch drivers. */
final class PytorchModels {
    static final String ARTIFACT = "mlp_torchscript.pt";

    private PytorchModels() {}

    /**
     * {@code Module.load} after setting LibTorch's threads, then one probe call
     * on zeros to check the output is float32 {@code [batch, 1]}.
     */
    static Module load(Path model, int threads, int batch) throws DataException {
        LibTorch.ensureLoaded();
        LibTorch.setNumThreads(threads);
        Module module = Module.load(model.toString());
        try {
            long[] shape = {batch, 2};
            Tensor x = Tensor.fromBlob(new float[2 * batch], shape);
            IValue y = module.forward(IValue.from(x));
            if (!y.isTensor()) {
                throw new DataException(model, "forward returns no tensor for a [" + batch + ", 2] input");
            }
            Tensor out = y.toTensor();
            OutputShape.require(model, out.shape(), batch);
            if (out.dtype() != org.pytorch.DType.FLOAT32) {
                throw new DataException(model, "forward returns " + out.dtype() + ", expected FLOAT32");
            }
            return module;
        } catch (DataException | RuntimeException e) {
            module.destroy();
            throw e;
        }
    }

    static String version() {
        return "libtorch " + LibTorch.version() + " via pytorch_java_only 1.13.1";
    }

    /** What each call does, and what LibTorch uses, read back from it (not our setting). */
    static Map<String, Object> notes(String call) {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", call);
        notes.put("libtorch_version", LibTorch.version());
        notes.put("intra_op_threads", LibTorch.getNumThreads());
        notes.put("native_peer", "java/native (the project's JNI peer for pytorch_java_only)");
        return notes;
    }
}
