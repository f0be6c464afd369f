package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest {
    @TempDir
    Path dir;

    @Test
    void writesFloat32LittleEndianAndReplacesOldContent() throws Exception {
        Path path = dir.resolve("out.f32");
        Files.write(path, new byte[64]);
        ResultFiles.writeFloats(path, new float[] {1f, -0.5f, 3.25f});
        assertEquals(12, Files.size(path));
        assertArrayEquals(new float[] {1f, -0.5f, 3.25f}, TestFiles.readFloats(path));
        // 1.0f little-endian is 00 00 80 3f.
        byte[] raw = Files.readAllBytes(path);
        assertEquals((byte) 0x3f, raw[3]);
    }

    @Test
    void writesInt64LittleEndian() throws Exception {
        Path path = dir.resolve("lat.i64");
        ResultFiles.writeLongs(path, new long[] {7L, 1L << 40});
        assertArrayEquals(new long[] {7L, 1L << 40}, TestFiles.readLongs(path));
    }

    @Test
    void unwritablePathIsADataError() {
        Path path = dir.resolve("no/such/dir/out.f32");
        DataException e = assertThrows(DataException.class,
                () -> ResultFiles.writeFloats(path, new float[1]));
        assertTrue(e.getMessage().startsWith(path + ": cannot be written"), e.getMessage());
    }

    @Test
    void jsonEscapesAndNests() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("s", "a\"b\\c\nd");
        fields.put("n", 3);
        fields.put("big", 12345678901L);
        fields.put("list", new long[] {1, 2});
        fields.put("nested", Map.of("k", true));
        fields.put("nan", Double.NaN);
        assertEquals("{\"s\": \"a\\\"b\\\\c\\nd\", \"n\": 3, \"big\": 12345678901, \"list\": [1, 2], "
                + "\"nested\": {\"k\": true}, \"nan\": null}", Json.object(fields));
    }
}
