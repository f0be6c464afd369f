package dev.callbench.drivers;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.callbench.CallbenchException;
import dev.callbench.DriverMain;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * java-onnxruntime: the ONNX Runtime Java API called the plain documented way.
 * Each call makes a new tensor of every input from a slice of its samples
 * ({@code OnnxTensor.createTensor(env, buffer, shape, type)}, which copies a
 * heap buffer), calls {@code session.run} with the input map, and reads each
 * output back as a ByteBuffer ({@code getByteBuffer}, a copy), then closes
 * what it made.
 */
public final class OnnxRuntimeDriver extends OnnxRuntimeFamily {
    public OnnxRuntimeDriver() {
        super("java-onnxruntime", "OnnxTensor.createTensor(heap ByteBuffer slice, shape, type)"
                + " + session.run(Map) + getByteBuffer() of each output, each call");
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new OnnxRuntimeDriver(), args);
    }

    @Override
    Bound bind(OrtEnvironment env, OrtSession session, int batch, Signature signature) {
        return new Plain(env, session, batch, signature);
    }

    private static final class Plain extends Bound {
        private final OrtEnvironment env;
        private final int batch;
        private final List<Tensor> inputs;
        private final List<Tensor> outputs;
        private final OnnxTensor[] made;
        private final Map<String, OnnxTensor> feed = new HashMap<>();

        Plain(OrtEnvironment env, OrtSession session, int batch, Signature signature) {
            super(session, signature);
            this.env = env;
            this.batch = batch;
            this.inputs = signature.inputs();
            this.outputs = signature.outputs();
            this.made = new OnnxTensor[inputs.size()];
        }

        @Override
        public void call(ByteBuffer[] values, int first, ByteBuffer[] into) throws OrtException {
            try {
                for (int k = 0; k < made.length; k++) {
                    Tensor input = inputs.get(k);
                    int step = batch * input.sampleBytes();
                    made[k] = OnnxRuntimeSessions.tensor(env,
                            values[k].slice(first * input.sampleBytes(), step), input, batch);
                    feed.put(input.name(), made[k]);
                }
                try (OrtSession.Result result = session.run(feed)) {
                    for (int k = 0; k < into.length; k++) {
                        int sample = outputs.get(k).sampleBytes();
                        ByteBuffer y = ((OnnxTensor) result.get(k)).getByteBuffer();
                        into[k].put(first * sample, y, 0, batch * sample);
                    }
                }
            } finally {
                for (int k = 0; k < made.length; k++) {
                    if (made[k] != null) {
                        made[k].close();
                        made[k] = null;
                    }
                }
            }
        }
    }
}
