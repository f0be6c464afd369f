package dev.callbench.pytorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/** Scalars, strings, tuples, typed and generic lists, in and out, through runMethod. */
class IValueKindsTest {
    private static Module module;

    @BeforeAll
    static void load() {
        module = NativePeerFiles.loadRoundTrip();
    }

    @AfterAll
    static void destroy() {
        module.destroy();
    }

    private static Tensor floats(float... values) {
        return Tensor.fromBlob(values, new long[] {values.length});
    }

    @Test
    void tupleOutput() {
        IValue out = module.runMethod("pair", IValue.from(floats(1f, 2f)));
        assertTrue(out.isTuple());
        IValue[] items = out.toTuple();
        assertEquals(2, items.length);
        assertArrayEquals(new float[] {2f, 3f}, items[0].toTensor().getDataAsFloatArray());
        assertArrayEquals(new float[] {2f, 4f}, items[1].toTensor().getDataAsFloatArray());
    }

    @Test
    void tensorListOutput() {
        IValue out = module.runMethod("ladder", IValue.from(floats(5f)));
        assertTrue(out.isTensorList());
        Tensor[] items = out.toTensorList();
        assertEquals(3, items.length);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(new float[] {5f + i}, items[i].getDataAsFloatArray());
        }
    }

    @Test
    void tensorListInput() {
        IValue list = IValue.listFrom(floats(1f, 2f), floats(10f, 20f), floats(100f, 200f));
        assertArrayEquals(new float[] {111f, 222f},
                module.runMethod("tensor_sum", list).toTensor().getDataAsFloatArray());
    }

    @Test
    void tupleInputAndOutput() {
        IValue out = module.runMethod("swap", IValue.tupleFrom(IValue.from(7L), IValue.from(floats(3f))));
        IValue[] items = out.toTuple();
        assertArrayEquals(new float[] {3f}, items[0].toTensor().getDataAsFloatArray());
        assertEquals(7L, items[1].toLong());
    }

    @Test
    void genericListOfTuplesOutput() {
        IValue out = module.runMethod("pairs", IValue.from(4L));
        assertTrue(out.isList());
        IValue[] items = out.toList();
        assertEquals(4, items.length);
        for (int i = 0; i < 4; i++) {
            IValue[] pair = items[i].toTuple();
            assertEquals(i, pair[0].toLong());
            assertEquals((long) i * i, pair[1].toLong());
        }
    }

    @Test
    void genericListOfTuplesInput() {
        IValue list = IValue.listFrom(IValue.tupleFrom(IValue.from(2L), IValue.from(3L)),
                IValue.tupleFrom(IValue.from(4L), IValue.from(5L)));
        assertEquals(26L, module.runMethod("sum_pairs", list).toLong());
    }

    @Test
    void scalars() {
        assertEquals(42L, module.runMethod("add_ints", IValue.from(40L), IValue.from(2L)).toLong());
        assertEquals(1.25, module.runMethod("halved", IValue.from(2.5)).toDouble());
        assertFalse(module.runMethod("negate", IValue.from(true)).toBool());
        assertEquals("hello jni", module.runMethod("greet", IValue.from("jni")).toStr());
    }

    @Test
    void typedLists() {
        assertArrayEquals(new long[] {2, -4, 0},
                module.runMethod("doubled_longs", IValue.listFrom(1L, -2L, 0L)).toLongList());
        assertArrayEquals(new double[] {1.0, -0.5},
                module.runMethod("doubled_doubles", IValue.listFrom(0.5, -0.25)).toDoubleList());
        assertArrayEquals(new boolean[] {false, true},
                module.runMethod("flipped", IValue.listFrom(true, false)).toBoolList());
        assertArrayEquals(new long[] {},
                module.runMethod("doubled_longs", IValue.listFrom(new long[] {})).toLongList());
    }

    @Test
    void optionalNone() {
        assertTrue(module.runMethod("maybe", IValue.optionalNull()).isNull());
        assertArrayEquals(new float[] {9f},
                module.runMethod("maybe", IValue.from(floats(9f))).toTensor().getDataAsFloatArray());
    }
}
