package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.Tensors;
import dev.callbench.UsageException;
import dev.callbench.pytorch.LibTorch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/** Loads the TorchScript model the same way for both org.pytorch drivers. */
final class PytorchModels {
    static final String ARTIFACT = "mlp_torchscript.pt";
    private static final String PER_BATCH_PREFIX = "mlp_torchscript_batch";

    private PytorchModels() {}

    /**
     * The TorchScript file a row loads at its {@code --batch}: {@link #ARTIFACT} (a
     * trace of every batch), else {@code mlp_torchscript_batch<B>.pt}, the trace made
     * at this batch alone (the contract's "A trace per batch"). Where the folder holds
     * another batch's trace only, the usage line naming the file looked for.
     */
    static Path traceFor(Options options) throws UsageException {
        Path every = options.models.resolve(ARTIFACT);
        Path own = options.models.resolve(PER_BATCH_PREFIX + options.batch + ".pt");
        if (Files.isRegularFile(every)) {
            return every;
        }
        if (Files.isRegularFile(own)) {
            return own;
        }
        boolean perBatch;
        try (Stream<Path> listed = Files.list(options.models)) {
            perBatch = listed.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.startsWith(PER_BATCH_PREFIX) && n.endsWith(".pt"));
        } catch (IOException e) {
            perBatch = false; // no folder to list: the kit's missing-file line names the artifact
        }
        if (perBatch) {
            throw new UsageException("--batch " + options.batch + ": no trace at this batch ("
                    + own + " missing; the program's trace bakes its batch in)");
        }
        return every;
    }

    /**
     * {@code Module.load} after setting LibTorch's threads, the signature the
     * file carries ({@link TorchScriptSignature}), then one probe call on zeros
     * to check each output's count, dtype and shape against it.
     */
    static Module load(Path model, int threads, int batch, Signature signature) throws DataException {
        for (dev.callbench.Tensor tensor : signature.inputs()) {
            PytorchTensors.dtypeOf(model, tensor);
        }
        LibTorch.ensureLoaded();
        LibTorch.setNumThreads(threads);
        Module module = Module.load(model.toString());
        try {
            IValue[] zeros = new IValue[signature.inputs().size()];
            for (int k = 0; k < zeros.length; k++) {
                dev.callbench.Tensor input = signature.inputs().get(k);
                ByteBuffer direct = Tensor.allocateByteBuffer(batch * input.sampleBytes());
                zeros[k] = IValue.from(PytorchTensors.over(direct, input.dtype(), input.batchShape(batch)));
            }
            Tensor[] outputs = PytorchTensors.outputs(module.forward(zeros));
            List<dev.callbench.Tensor> expected = signature.outputs();
            if (outputs.length != expected.size()) {
                throw new DataException(model, "forward returns " + outputs.length + " tensors, "
                        + TorchScriptSignature.FILE + " names " + expected.size());
            }
            for (int k = 0; k < outputs.length; k++) {
                dev.callbench.Tensor output = expected.get(k);
                if (outputs[k].dtype() != PytorchTensors.dtypeOf(model, output)
                        || !Arrays.equals(outputs[k].shape(), output.batchShape(batch))) {
                    throw new DataException(model, "output " + k + " is " + outputs[k].dtype() + " "
                            + Arrays.toString(outputs[k].shape()) + ", expected " + output.describe()
                            + " for each of " + batch + " samples");
                }
            }
            Tensors.checkReferences(model, model.toAbsolutePath().getParent(), signature);
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
    static Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("libtorch_version", LibTorch.version());
        notes.put("intra_op_threads", LibTorch.getNumThreads());
        notes.put("native_peer", "java/native (the project's JNI peer for pytorch_java_only)");
        return notes;
    }
}
