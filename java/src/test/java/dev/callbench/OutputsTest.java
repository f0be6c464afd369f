package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputsTest {
    @TempDir
    Path dir;

    @Test
    void writesEachOutputAfterTheOtherAndReplacesOldContent() throws Exception {
        Path path = dir.resolve("out.f32");
        Files.write(path, new byte[64]);
        ByteBuffer first = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(1f).putFloat(-0.5f);
        ByteBuffer second = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(3.25f);
        Outputs.writeOutputs(path, new ByteBuffer[] {first.flip(), second.flip()});
        assertEquals(12, Files.size(path));
        assertArrayEquals(new float[] {1f, -0.5f, 3.25f}, TestFiles.readFloats(path));
        // 1.0f little-endian is 00 00 80 3f.
        byte[] raw = Files.readAllBytes(path);
        assertEquals((byte) 0x3f, raw[3]);
    }

    @Test
    void writesInt64LittleEndian() throws Exception {
        Path path = dir.resolve("lat.i64");
        Outputs.writeInt64s(path, new long[] {7L, 1L << 40});
        assertArrayEquals(new long[] {7L, 1L << 40}, TestFiles.readLongs(path));
    }

    @Test
    void unwritablePathIsADataError() {
        Path path = dir.resolve("no/such/dir/out.f32");
        DataException e = assertThrows(DataException.class,
                () -> Outputs.writeOutputs(path, new ByteBuffer[] {ByteBuffer.allocate(4)}));
        assertTrue(e.getMessage().startsWith(path + ": cannot be written"), e.getMessage());
    }
}
