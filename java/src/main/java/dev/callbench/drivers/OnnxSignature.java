package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.Tensors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An ONNX model's signature (contract version 3: every input and output, its
 * dtype and shape per sample) from its ports as a session describes them,
 * checked the same way whichever binding read them: the Java API (JNI) or the
 * C API (FFM).
 */
final class OnnxSignature {
    /**
     * One input or output as a session describes it: its dtype (null when the
     * contract has none for its element type), the binding's name for its
     * element type (null when it is not a tensor: a sequence, a map), and its
     * dimensions (-1 where symbolic).
     */
    record Port(String name, Dtype dtype, String elementType, long[] shape) {}

    // The C API's ONNX_TENSOR_ELEMENT_DATA_TYPE_* (onnx.proto's TensorProto.DataType);
    // the Java API numbers its OnnxTensorType otherwise.
    private static final int[] ELEMENT_TYPES = new int[Dtype.values().length];

    static {
        ELEMENT_TYPES[Dtype.FLOAT32.ordinal()] = 1;
        ELEMENT_TYPES[Dtype.UINT8.ordinal()] = 2;
        ELEMENT_TYPES[Dtype.INT8.ordinal()] = 3;
        ELEMENT_TYPES[Dtype.INT32.ordinal()] = 6;
        ELEMENT_TYPES[Dtype.INT64.ordinal()] = 7;
        ELEMENT_TYPES[Dtype.BOOL.ordinal()] = 9;
        ELEMENT_TYPES[Dtype.FLOAT16.ordinal()] = 10;
        ELEMENT_TYPES[Dtype.FLOAT64.ordinal()] = 11;
    }

    private OnnxSignature() {}

    /** The C API's element type of a dtype. */
    static int elementType(Dtype dtype) {
        return ELEMENT_TYPES[dtype.ordinal()];
    }

    /** The dtype of a C API element type, null if the contract has none. */
    static Dtype dtypeOf(int elementType) {
        return Arrays.stream(Dtype.values()).filter(d -> elementType(d) == elementType).findFirst()
                .orElse(null);
    }

    /**
     * The signature of a model with these ports, checked against the reference
     * files beside it: every port a tensor of a dtype the contract has, with a
     * batch dimension and every other dimension fixed; at least one input.
     */
    static Signature of(Path model, List<Port> inputs, List<Port> outputs) throws DataException {
        if (inputs.isEmpty()) {
            throw new DataException(model, "has no inputs");
        }
        Signature signature = new Signature(tensors(model, "input", inputs),
                tensors(model, "output", outputs));
        Tensors.checkReferences(model, model.toAbsolutePath().getParent(), signature);
        return signature;
    }

    private static List<Tensor> tensors(Path model, String role, List<Port> ports)
            throws DataException {
        List<Tensor> all = new ArrayList<>();
        for (Port port : ports) {
            all.add(tensor(model, role, port));
        }
        return all;
    }

    private static Tensor tensor(Path model, String role, Port port) throws DataException {
        String what = role + " '" + port.name() + "'";
        if (port.elementType() == null) {
            throw new DataException(model, what + " is not a tensor");
        }
        Dtype dtype = port.dtype();
        if (dtype == null) {
            throw new DataException(model, what + " has ONNX element type " + port.elementType()
                    + ", which the contract does not feed");
        }
        long[] shape = port.shape();
        if (shape.length == 0) {
            throw new DataException(model, what + " has no batch dimension");
        }
        for (int i = 1; i < shape.length; i++) {
            if (shape[i] < 1) {
                throw new DataException(model, what + " " + Arrays.toString(shape)
                        + " has a non-batch size not fixed");
            }
        }
        return new Tensor(port.name(), dtype, Arrays.copyOfRange(shape, 1, shape.length));
    }
}
