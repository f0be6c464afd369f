package dev.callbench.pytorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.FloatBuffer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pytorch.DType;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/** Tensors of every dtype the API has go through forward(x) = x + 1 and come back intact. */
class TensorRoundTripTest {
    private static Module module;

    @BeforeAll
    static void load() {
        module = NativePeerFiles.loadRoundTrip();
    }

    @AfterAll
    static void destroy() {
        module.destroy();
    }

    static Stream<long[]> shapes() {
        return Stream.of(new long[] {}, new long[] {1}, new long[] {1, 2}, new long[] {3, 2},
                new long[] {2, 3, 4}, new long[] {0, 5});
    }

    private static int numel(long[] shape) {
        return (int) Tensor.numel(shape);
    }

    private static Tensor plusOne(Tensor x, DType expected) {
        Tensor y = module.forward(IValue.from(x)).toTensor();
        assertEquals(expected, y.dtype());
        assertArrayEquals(x.shape(), y.shape());
        return y;
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void float32(long[] shape) {
        float[] data = new float[numel(shape)];
        float[] want = new float[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = 0.25f * i - 3f;
            want[i] = data[i] + 1f;
        }
        assertArrayEquals(want, plusOne(Tensor.fromBlob(data, shape), DType.FLOAT32).getDataAsFloatArray());
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void float64(long[] shape) {
        double[] data = new double[numel(shape)];
        double[] want = new double[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = 1e-3 * i - 1e10;
            want[i] = data[i] + 1.0;
        }
        assertArrayEquals(want, plusOne(Tensor.fromBlob(data, shape), DType.FLOAT64).getDataAsDoubleArray());
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void int32(long[] shape) {
        int[] data = new int[numel(shape)];
        int[] want = new int[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 1_000_003 - 7;
            want[i] = data[i] + 1;
        }
        assertArrayEquals(want, plusOne(Tensor.fromBlob(data, shape), DType.INT32).getDataAsIntArray());
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void int64(long[] shape) {
        long[] data = new long[numel(shape)];
        long[] want = new long[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = (1L << 40) * i - 5;
            want[i] = data[i] + 1;
        }
        assertArrayEquals(want, plusOne(Tensor.fromBlob(data, shape), DType.INT64).getDataAsLongArray());
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void uint8(long[] shape) {
        byte[] data = new byte[numel(shape)];
        byte[] want = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 37 + 200);  // unsigned 200.., wraps at 255 + 1 like uint8
            want[i] = (byte) (data[i] + 1);
        }
        Tensor y = plusOne(Tensor.fromBlobUnsigned(data, shape), DType.UINT8);
        assertArrayEquals(want, y.getDataAsUnsignedByteArray());
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void int8(long[] shape) {
        byte[] data = new byte[numel(shape)];
        byte[] want = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 13 - 100);
            want[i] = (byte) (data[i] + 1);
        }
        assertArrayEquals(want, plusOne(Tensor.fromBlob(data, shape), DType.INT8).getDataAsByteArray());
    }

    @Test
    void directBufferIsReadAtCallTime() {
        // The reuse driver's pattern: one tensor over a direct buffer, rewritten between calls.
        FloatBuffer buffer = Tensor.allocateFloatBuffer(2);
        IValue x = IValue.from(Tensor.fromBlob(buffer, new long[] {1, 2}));
        buffer.put(0, 1f).put(1, 2f);
        assertArrayEquals(new float[] {2f, 3f}, module.forward(x).toTensor().getDataAsFloatArray());
        buffer.put(0, -5f).put(1, 10f);
        assertArrayEquals(new float[] {-4f, 11f}, module.forward(x).toTensor().getDataAsFloatArray());
    }

    @Test
    void outputFedBackAsInput() {
        // Outputs live in Java heap buffers; the peer copies them in again.
        Tensor x = Tensor.fromBlob(new long[] {1, 2, 3, 4, 5, 6}, new long[] {2, 3});
        Tensor y = module.forward(IValue.from(x)).toTensor();
        Tensor z = module.forward(IValue.from(y)).toTensor();
        assertArrayEquals(new long[] {2, 3}, z.shape());
        assertArrayEquals(new long[] {3, 4, 5, 6, 7, 8}, z.getDataAsLongArray());
    }

    @Test
    void channelsLastInputKeepsItsLayout() {
        // NHWC data of an NCHW shape [1, 2, 1, 2]: channel 0 is {1, 3}, channel 1 is {2, 4}.
        float[] nhwc = {1f, 2f, 3f, 4f};
        Tensor x = Tensor.fromBlob(nhwc, new long[] {1, 2, 1, 2}, org.pytorch.MemoryFormat.CHANNELS_LAST);
        Tensor y = module.forward(IValue.from(x)).toTensor();
        assertArrayEquals(new float[] {2f, 4f, 3f, 5f}, y.getDataAsFloatArray());  // contiguous NCHW
    }

    @Test
    void outputThatIsTheInputIsCopiedOutOfJavaMemory() {
        FloatBuffer buffer = Tensor.allocateFloatBuffer(3);
        buffer.put(new float[] {1f, 2f, 3f});
        Tensor y = module.runMethod("identity", IValue.from(Tensor.fromBlob(buffer, new long[] {3})))
                .toTensor();
        buffer.put(0, 100f);  // must not show through y
        assertArrayEquals(new float[] {1f, 2f, 3f}, y.getDataAsFloatArray());
    }
}
