package dev.callbench.testing;

import dev.callbench.CallbenchException;
import dev.callbench.CallersDriver;
import dev.callbench.DataException;
import dev.callbench.DriverMain;
import dev.callbench.Dtype;
import dev.callbench.Options;
import dev.callbench.Signature;
import dev.callbench.TakesCallers;
import dev.callbench.Tensor;
import dev.callbench.TensorModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * callbench-callers-test: a driver of the Java kit that takes callers (contract 4) and
 * misbehaves in one chosen caller on request, for the conformance test:
 *
 * <pre>jvm_host --main dev.callbench.testing.CallersTestDriver -- MODE DRIVER_ID &lt;contract options&gt;</pre>
 *
 * <p>Each caller reads its own copy of mlp_weights.f32 and runs the MLP's forward pass as
 * plain loops, so its outputs are the model's and only MODE can fail it: "ok";
 * "fail-in-caller-C" (caller C fails in its first round); "hang-in-caller-C" (caller C
 * sleeps ten minutes in its first round). It lives with the kit's classes, not its tests,
 * because the JPype host runs what those hold.
 */
public final class CallersTestDriver implements CallersDriver {
    private static final Signature MLP = new Signature(
            List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
            List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));

    private final String id;
    private final String how;
    private final int misbehaving;

    private CallersTestDriver(String id, String mode) {
        this.id = id;
        int dash = mode.lastIndexOf('-');
        boolean chosen = dash > 0 && mode.substring(0, dash).endsWith("-in-caller");
        this.how = chosen ? mode.substring(0, dash) : "ok";
        this.misbehaving = chosen ? Integer.parseInt(mode.substring(dash + 1)) : -1;
    }

    public static void main(String[] args) throws CallbenchException {
        DriverMain.run(new CallersTestDriver(args[1], args[0]), Arrays.copyOfRange(args, 2, args.length));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String artifact() {
        return "mlp_weights.f32";
    }

    @Override
    public TakesCallers load(Path model, Options options) throws Exception {
        return new Loaded(model, options);
    }

    /** One caller's forward pass over its own weights. */
    private static class Forward implements TensorModel {
        private final float[] w;
        private final int h;
        private final int batch;
        private final String misbehaves; // null for a caller that behaves
        private final int warmup;
        private int calls;

        Forward(Path weights, Options options, String misbehaves) throws IOException, DataException {
            FloatBuffer floats = ByteBuffer.wrap(Files.readAllBytes(weights)).order(ByteOrder.LITTLE_ENDIAN)
                    .asFloatBuffer();
            this.w = new float[floats.remaining()];
            floats.get(w);
            int width = 1;
            while (width * width + 5 * width + 1 < w.length) {
                width++;
            }
            if (width * width + 5 * width + 1 != w.length) {
                throw new DataException(weights, "holds " + w.length + " floats, no 2-H-H-1 MLP's count");
            }
            this.h = width;
            this.batch = options.batch;
            this.misbehaves = misbehaves;
            this.warmup = options.warmup;
        }

        @Override
        public Signature signature() {
            return MLP;
        }

        @Override
        public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) throws Exception {
            if (misbehaves != null && ++calls > warmup) { // the warm-up goes as it should
                if (misbehaves.equals("fail-in-caller")) {
                    throw new IllegalStateException("failed on purpose");
                }
                Thread.sleep(600_000);
            }
            ByteBuffer x = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer y = outputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
            float[] h1 = new float[h];
            int b = 3 * h;
            int c = b + h * h + h;
            for (int s = first; s < first + batch; s++) {
                float x0 = x.getFloat(8 * s);
                float x1 = x.getFloat(8 * s + 4);
                for (int j = 0; j < h; j++) {
                    h1[j] = Math.max(w[2 * j] * x0 + w[2 * j + 1] * x1 + w[2 * h + j], 0f);
                }
                float out = w[c + h];
                for (int j = 0; j < h; j++) {
                    float v = w[b + h * h + j];
                    for (int k = 0; k < h; k++) {
                        v += w[b + j * h + k] * h1[k];
                    }
                    out += w[c + j] * Math.max(v, 0f);
                }
                y.putFloat(4 * s, out);
            }
        }

        @Override
        public String runtimeVersion() {
            return "0";
        }

        @Override
        public void close() {}
    }

    /** The loaded model: what each caller reads its weights from, and the mode. */
    private final class Loaded extends Forward implements TakesCallers {
        private final Path weights;
        private final Options options;
        private int made;

        Loaded(Path weights, Options options) throws IOException, DataException {
            super(weights, options, null);
            this.weights = weights;
            this.options = options;
        }

        @Override
        public TensorModel caller() throws Exception {
            return new Forward(weights, options, made++ == misbehaving ? how : null);
        }

        @Override
        public Holding holding() {
            return new Holding(Holding.PER_CALLER, "its own weights read by each caller");
        }
    }
}
