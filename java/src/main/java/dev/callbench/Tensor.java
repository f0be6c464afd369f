package dev.callbench;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * One named input or output of a model: its dtype and its shape per sample
 * (the batch dimension left out; {@code []} for a model whose output is {@code [batch]}).
 */
public record Tensor(String name, Dtype dtype, long[] shape) {
    /** Values per sample. */
    public int sampleSize() {
        long size = 1;
        for (long d : shape) {
            size *= d;
        }
        return Math.toIntExact(size);
    }

    /** Bytes per sample. */
    public int sampleBytes() {
        return sampleSize() * dtype.bytes();
    }

    /** {@code [batch, ...shape]}: the shape of one call's tensor. */
    public long[] batchShape(int batch) {
        long[] dims = new long[shape.length + 1];
        dims[0] = batch;
        System.arraycopy(shape, 0, dims, 1, shape.length);
        return dims;
    }

    /** {@code 'x' float32 [3, 32, 32]}. */
    public String describe() {
        return "'" + name + "' " + dtype.contractName() + " ["
                + Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining(", ")) + "]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Tensor t && name.equals(t.name) && dtype == t.dtype
                && Arrays.equals(shape, t.shape);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * name.hashCode() + dtype.hashCode()) + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return describe();
    }
}
