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
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * callbench-callers-test: a driver of the Java kit that takes callers (contract 4) and
 * misbehaves in one chosen caller on request, for the conformance test:
 *
 * <pre>jvm_host --main dev.callbench.testing.CallersTestDriver -- MODE DRIVER_ID &lt;contract options&gt;</pre>
 *
 * <p>Each caller reads its own copy of mlp_weights.f32 and runs the MLP's forward pass as
 * plain loops, so its outputs are the model's and only MODE can fail it: "ok";
 * "fail-in-caller-C" (caller C fails in its first round); "hang-in-caller-C" (caller C
 * sleeps ten minutes in its first round); "stall-at-call-J" (after its warm-up, the first
 * call over the samples of call J, whichever caller makes it, sleeps 50 ms first: contract
 * 6's paced test, the calls queued behind it carry the wait). It lives with the kit's classes, not its tests,
 * because the JPype host runs what those hold.
 */
public final class CallersTestDriver implements CallersDriver {
    private static final Signature MLP = new Signature(
            List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
            List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));

    /** The one stall of stall-at-call-J, in the whole process. */
    private static final AtomicBoolean STALLED = new AtomicBoolean();

    private final String id;
    private final String how;
    private final int misbehaving;
    private final int stallAt; // stall-at-call-J: J; -1 for none

    private CallersTestDriver(String id, String mode) {
        this.id = id;
        int dash = mode.lastIndexOf('-');
        boolean chosen = dash > 0 && mode.substring(0, dash).endsWith("-in-caller");
        this.how = chosen ? mode.substring(0, dash) : "ok";
        this.misbehaving = chosen ? Integer.parseInt(mode.substring(dash + 1)) : -1;
        boolean stalls = dash > 0 && mode.substring(0, dash).equals("stall-at-call");
        this.stallAt = stalls ? Integer.parseInt(mode.substring(dash + 1)) : -1;
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
        return new Loaded(model, options, stallSamples(options));
    }

    /** Call J's samples (stall-at-call-J), or null. */
    private float[] stallSamples(Options options) throws IOException {
        if (stallAt < 0) {
            return null;
        }
        FloatBuffer all = ByteBuffer.wrap(Files.readAllBytes(options.models.resolve("inputs.f32")))
                .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        float[] mine = new float[2 * options.batch];
        all.get(2 * options.batch * stallAt, mine);
        return mine;
    }

    /** One caller's forward pass over its own weights. */
    private static class Forward implements TensorModel {
        private final float[] w;
        private final int h;
        private final int batch;
        private final String misbehaves; // null for a caller that behaves
        private final int warmup;
        private final float[] stallOver; // stall-at-call-J: call J's samples; else null
        private int calls;

        Forward(Path weights, Options options, String misbehaves, float[] stallOver)
                throws IOException, DataException {
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
            this.stallOver = stallOver;
        }

        /** Whether the call at {@code first} is over call J's samples (stall-at-call-J). */
        private boolean overStallSamples(ByteBuffer x, int first) {
            for (int i = 0; i < stallOver.length; i++) {
                if (x.getFloat(4 * (2 * first + i)) != stallOver[i]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Signature signature() {
            return MLP;
        }

        @Override
        public void call(ByteBuffer[] inputs, int first, ByteBuffer[] outputs) throws Exception {
            ByteBuffer x = inputs[0].duplicate().order(ByteOrder.LITTLE_ENDIAN);
            ++calls;
            if (stallOver != null && calls > warmup && overStallSamples(x, first) && !STALLED.getAndSet(true)) {
                Thread.sleep(50);
            }
            if (misbehaves != null && calls > warmup) { // the warm-up goes as it should
                if (misbehaves.equals("fail-in-caller")) {
                    throw new IllegalStateException("failed on purpose");
                }
                Thread.sleep(600_000);
            }
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
        private final float[] stallOver;
        private int made;

        Loaded(Path weights, Options options, float[] stallOver) throws IOException, DataException {
            super(weights, options, null, stallOver);
            this.weights = weights;
            this.options = options;
            this.stallOver = stallOver;
        }

        @Override
        public TensorModel caller() throws Exception {
            return new Forward(weights, options, made++ == misbehaving ? how : null, stallOver);
        }

        @Override
        public Holding holding() {
            return new Holding(Holding.PER_CALLER, "its own weights read by each caller");
        }
    }
}
