package dev.callbench.drivers;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.callbench.DataException;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Opens a model the same way for every ONNX Runtime Java API driver, and reads and checks its signature. */
final class OnnxRuntimeSessions {
    private OnnxRuntimeSessions() {}

    /**
     * A session with {@code threads} intra-op threads and no inter-op
     * parallelism (sequential execution), all graph optimisations on.
     */
    static OrtSession open(OrtEnvironment env, Path model, int threads)
            throws OrtException, DataException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            return env.createSession(model.toString(), options);
        }
    }

    /** Every input and output as the session declares them (its maps keep the model's order). */
    static Signature signature(OrtSession session, Path model) throws OrtException, DataException {
        return OnnxSignature.of(model, ports(session.getInputInfo()), ports(session.getOutputInfo()));
    }

    private static List<OnnxSignature.Port> ports(Map<String, NodeInfo> nodes) {
        List<OnnxSignature.Port> ports = new ArrayList<>();
        for (NodeInfo node : nodes.values()) {
            ports.add(node.getInfo() instanceof TensorInfo tensor
                    ? new OnnxSignature.Port(node.getName(), dtypeOf(tensor.onnxType),
                            tensor.onnxType.name(), tensor.getShape())
                    : new OnnxSignature.Port(node.getName(), null, null, new long[0]));
        }
        return ports;
    }

    /** The dtype of the Java API's element type, null if the contract has none. */
    static Dtype dtypeOf(TensorInfo.OnnxTensorType type) {
        return switch (type) {
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT -> Dtype.FLOAT32;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 -> Dtype.FLOAT16;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE -> Dtype.FLOAT64;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 -> Dtype.INT64;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 -> Dtype.INT32;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 -> Dtype.INT8;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 -> Dtype.UINT8;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL -> Dtype.BOOL;
            default -> null;
        };
    }

    /** The Java API's type of a dtype's tensors (float16: raw bits in a ByteBuffer). */
    static OnnxJavaType javaType(Dtype dtype) {
        return switch (dtype) {
            case FLOAT32 -> OnnxJavaType.FLOAT;
            case FLOAT16 -> OnnxJavaType.FLOAT16;
            case FLOAT64 -> OnnxJavaType.DOUBLE;
            case INT64 -> OnnxJavaType.INT64;
            case INT32 -> OnnxJavaType.INT32;
            case INT8 -> OnnxJavaType.INT8;
            case UINT8 -> OnnxJavaType.UINT8;
            case BOOL -> OnnxJavaType.BOOL;
        };
    }

    /**
     * A tensor of one call's batch of {@code tensor} over {@code data}'s bytes
     * from its position to its limit (little-endian): a direct buffer is wrapped
     * without a copy, a heap one copied. A heap buffer goes through its typed
     * view (FloatBuffer, LongBuffer, ...), the overload the Java API documents
     * for it: 1.29 copies a heap ByteBuffer of a wider type by casting it to the
     * typed buffer, which fails.
     */
    static OnnxTensor tensor(OrtEnvironment env, ByteBuffer data, Tensor tensor, int batch)
            throws OrtException {
        long[] shape = tensor.batchShape(batch);
        if (data.isDirect()) {
            return OnnxTensor.createTensor(env, data, shape, javaType(tensor.dtype()));
        }
        ByteBuffer le = data.order(ByteOrder.LITTLE_ENDIAN);
        return switch (tensor.dtype()) {
            case FLOAT32 -> OnnxTensor.createTensor(env, le.asFloatBuffer(), shape);
            case FLOAT64 -> OnnxTensor.createTensor(env, le.asDoubleBuffer(), shape);
            case INT64 -> OnnxTensor.createTensor(env, le.asLongBuffer(), shape);
            case INT32 -> OnnxTensor.createTensor(env, le.asIntBuffer(), shape);
            case FLOAT16 -> OnnxTensor.createTensor(env, le.asShortBuffer(), shape, OnnxJavaType.FLOAT16);
            case INT8, UINT8, BOOL -> OnnxTensor.createTensor(env, le, shape, javaType(tensor.dtype()));
        };
    }

    /** A direct buffer of {@code bytes} in native (little-endian) order, as the runtime's memory. */
    static ByteBuffer direct(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    /**
     * Runs one batch of zeros and checks that each output comes back of its
     * dtype and of shape {@code [batch, ...shape]}: a preallocated output of
     * another shape would hide a wrong one.
     */
    static void checkAnswers(OrtEnvironment env, OrtSession session, Path model, int batch,
            Signature signature) throws OrtException, DataException {
        List<OnnxTensor> zeros = new ArrayList<>();
        try {
            Map<String, OnnxTensor> inputs = new HashMap<>();
            for (Tensor input : signature.inputs()) {
                OnnxTensor zero = tensor(env, direct(batch * input.sampleBytes()), input, batch);
                zeros.add(zero);
                inputs.put(input.name(), zero);
            }
            try (OrtSession.Result result = session.run(inputs)) {
                for (int k = 0; k < signature.outputs().size(); k++) {
                    Tensor output = signature.outputs().get(k);
                    TensorInfo info = ((OnnxTensor) result.get(k)).getInfo();
                    long[] expected = output.batchShape(batch);
                    if (dtypeOf(info.onnxType) != output.dtype()
                            || !Arrays.equals(info.getShape(), expected)) {
                        throw new DataException(model, "model answers '" + output.name() + "' with "
                                + Arrays.toString(info.getShape()) + " of element type "
                                + info.onnxType.name() + ", expected " + Arrays.toString(expected)
                                + " " + output.dtype().contractName());
                    }
                }
            }
        } finally {
            zeros.forEach(OnnxTensor::close);
        }
    }

    /** Closes {@code session}; failing to free it is a bug, not a user error. */
    static void close(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("closing the ONNX Runtime session failed", e);
        }
    }

    static String version() {
        return OrtEnvironment.getEnvironment().getVersion();
    }
}
