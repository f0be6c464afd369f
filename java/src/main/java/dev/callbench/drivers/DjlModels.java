package dev.callbench.drivers;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import dev.callbench.DataException;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.Tensors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Loading and checking the TorchScript model, shared by both DJL drivers. */
final class DjlModels {
    private DjlModels() {}

    /**
     * Loads {@code model} (TorchScript) on the PyTorch engine with DJL's Model
     * API. DJL's PyTorch model loads {@code <dir>/<name>.pt}, so it is given
     * the folder and the model name. Unlike {@code Criteria.loadModel}, this
     * closes the model when loading fails, so a corrupt file yields one error
     * line and no "model was not closed" warning from DJL's finalizer.
     */
    static Model load(Path model) throws IOException, MalformedModelException {
        String file = model.getFileName().toString();
        String name = file.endsWith(".pt") ? file.substring(0, file.length() - 3) : file;
        Model loaded = Model.newInstance(name, Device.cpu(), DjlEngine.NAME);
        try {
            loaded.load(model.toAbsolutePath().getParent(), name);
            return loaded;
        } catch (IOException | MalformedModelException | RuntimeException e) {
            loaded.close();
            throw e;
        }
    }

    /** DJL's data type for a contract dtype (DJL has them all). */
    static DataType dataType(Dtype dtype) {
        return switch (dtype) {
            case FLOAT32 -> DataType.FLOAT32;
            case FLOAT16 -> DataType.FLOAT16;
            case FLOAT64 -> DataType.FLOAT64;
            case INT64 -> DataType.INT64;
            case INT32 -> DataType.INT32;
            case INT8 -> DataType.INT8;
            case UINT8 -> DataType.UINT8;
            case BOOL -> DataType.BOOLEAN;
        };
    }

    /** {@code [batch, ...shape]} of one call's tensor, as DJL's Shape. */
    static Shape shape(Tensor tensor, int batch) {
        return new Shape(tensor.batchShape(batch));
    }

    /**
     * Runs one batch of zeros and checks each output's count, data type and
     * shape against the signature, and the reference files' sizes.
     */
    static void checkOutputs(Model loaded, Path model, int batch, Signature signature)
            throws TranslateException, DataException {
        try (NDManager manager = loaded.getNDManager().newSubManager();
                Predictor<NDList, NDList> probe = loaded.newPredictor(new NoopTranslator(null))) {
            NDList zeros = new NDList();
            for (Tensor input : signature.inputs()) {
                zeros.add(manager.zeros(shape(input, batch), dataType(input.dtype())));
            }
            NDList out = probe.predict(zeros);
            List<Tensor> expected = signature.outputs();
            if (out.size() != expected.size()) {
                throw new DataException(model, "gives " + out.size() + " outputs, "
                        + TorchScriptSignature.FILE + " names " + expected.size());
            }
            for (int k = 0; k < out.size(); k++) {
                Tensor output = expected.get(k);
                NDArray y = out.get(k);
                if (y.getDataType() != dataType(output.dtype()) || !y.getShape().equals(shape(output, batch))) {
                    throw new DataException(model, "output " + k + " is " + y.getDataType() + " "
                            + y.getShape() + ", expected " + output.describe() + " for each of "
                            + batch + " samples");
                }
            }
            out.close();
        }
        Tensors.checkReferences(model, model.toAbsolutePath().getParent(), signature);
    }
}
