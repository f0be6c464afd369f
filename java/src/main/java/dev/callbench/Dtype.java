package dev.callbench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;

/**
 * One of the element types of docs/contract.md (version 3): its size, its
 * name, the extension of its files, and what no call gives (the poison a kit
 * fills outputs with before a round).
 */
public enum Dtype {
    FLOAT32(4, "float32", "f32"),
    FLOAT16(2, "float16", "f16"),
    FLOAT64(8, "float64", "f64"),
    INT64(8, "int64", "i64"),
    INT32(4, "int32", "i32"),
    INT8(1, "int8", "i8"),
    UINT8(1, "uint8", "u8"),
    BOOL(1, "bool", "bool");

    private final int bytes;
    private final String contractName;
    private final String extension;

    Dtype(int bytes, String contractName, String extension) {
        this.bytes = bytes;
        this.contractName = contractName;
        this.extension = extension;
    }

    /** Bytes per value. */
    public int bytes() {
        return bytes;
    }

    /** The contract's name: float32, ..., bool. */
    public String contractName() {
        return contractName;
    }

    /** The dtype whose contract name is {@code name} ({@code float32}, ..., {@code bool}), if any. */
    public static Optional<Dtype> named(String name) {
        return Arrays.stream(values()).filter(d -> d.contractName.equals(name)).findFirst();
    }

    /** The extension of its files: f32, ..., bool. */
    public String extension() {
        return extension;
    }

    /** Whether the value at byte {@code at} of {@code le} (little-endian) is finite; any non-float is. */
    boolean finite(ByteBuffer le, int at) {
        return switch (this) {
            case FLOAT32 -> Float.isFinite(le.getFloat(at));
            case FLOAT64 -> Double.isFinite(le.getDouble(at));
            // An all-ones exponent is Inf or NaN.
            case FLOAT16 -> (le.getShort(at) & 0x7C00) != 0x7C00;
            default -> true;
        };
    }

    /**
     * Fills bytes {@code [from, to)} of {@code data} with what no call gives:
     * NaN for floats, an integer's smallest value. Bool has no such value and
     * is left as it is.
     */
    public void poison(ByteBuffer data, int from, int to) {
        ByteBuffer le = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int at = from; at + bytes <= to; at += bytes) {
            switch (this) {
                case FLOAT32 -> le.putFloat(at, Float.NaN);
                case FLOAT64 -> le.putDouble(at, Double.NaN);
                case FLOAT16 -> le.putShort(at, (short) 0x7E00);
                case INT64 -> le.putLong(at, Long.MIN_VALUE);
                case INT32 -> le.putInt(at, Integer.MIN_VALUE);
                case INT8 -> le.put(at, Byte.MIN_VALUE);
                case UINT8 -> le.put(at, (byte) 0);
                case BOOL -> {
                    return;
                }
            }
        }
    }
}
