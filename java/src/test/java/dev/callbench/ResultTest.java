package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearHostProperty() {
        System.clearProperty(Result.HOST_RSS_PROPERTY);
    }

    @Test
    void theLineHoldsTheContractsFieldsInOrder() throws UsageException {
        Options options = Options.parse(
                new String[] {"--calls", "9", "--batch", "3", "--threads", "2"});
        List<Round> rounds = List.of(new Round(9, 1234, 1200L, 100), new Round(5, 700, null, 2000));
        String line = Result.line("java-x", options, "1.2.3", 55, rounds, Map.of("call", "run"));
        assertTrue(line.matches("\\{\"driver\":\"java-x\",\"calls\":9,\"batch\":3,\"threads\":2,"
                + "\"runtime_version\":\"1.2.3\",\"load_ns\":55,\"peak_rss_bytes\":\\d+,"
                + "\"rounds\":\\[\\{\"calls\":9,\"ns\":1234,\"cpu_ns\":1200,\"start_ns\":100},"
                + "\\{\"calls\":5,\"ns\":700,\"cpu_ns\":null,\"start_ns\":2000}],"
                + "\"notes\":\\{\"jvm\":\"[^\"]+\",\"call\":\"run\","
                + "\"jvm_heap_committed_bytes\":\\d+,\"jvm_heap_live_bytes\":\\d+}}"), line);
    }

    @Test
    void notesCarryTheHostsResidentMemoryWhenGiven() {
        System.setProperty(Result.HOST_RSS_PROPERTY, "123456789");
        Map<String, Object> notes = Result.notes(Map.of("call", "run"));
        assertEquals(List.of("jvm", "host_rss_bytes", "call"), List.copyOf(notes.keySet()));
        assertEquals(123456789L, notes.get("host_rss_bytes"));
        System.clearProperty(Result.HOST_RSS_PROPERTY);
        assertEquals(List.of("jvm", "call"), List.copyOf(Result.notes(Map.of("call", "run")).keySet()));
    }

    @Test
    void peakRssIsVmHwmInBytesOrNull() throws Exception {
        Path status = Files.writeString(dir.resolve("status"),
                "Name:\tjava\nVmPeak:\t  900 kB\nVmHWM:\t   2048 kB\n");
        assertEquals(2048L * 1024, Result.peakRssBytes(status));
        assertNull(Result.peakRssBytes(Files.writeString(dir.resolve("none"), "Name:\tjava\n")));
        assertNull(Result.peakRssBytes(Files.writeString(dir.resolve("odd"), "VmHWM:\t12 MB\n")));
        assertNull(Result.peakRssBytes(dir.resolve("absent")));
        Long own = Result.peakRssBytes(Path.of("/proc/self/status"));
        assertTrue(own != null && own > 0, "this JVM's VmHWM: " + own);
    }

    @Test
    void notesAreEscapedAndANonFiniteNumberIsNull() throws UsageException {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("call", "a\"b\\c\nd <e>");
        notes.put("nan", Double.NaN);
        notes.put("big", 12345678901L);
        String line = Result.line("java-x", Options.parse(new String[0]), "1", 0, List.of(), notes);
        assertTrue(line.matches(".*,\"call\":\"a\\\\\"b\\\\\\\\c\\\\nd <e>\",\"nan\":null,\"big\":12345678901,"
                + "\"jvm_heap_committed_bytes\":\\d+,\"jvm_heap_live_bytes\":\\d+}}"), line);
    }
}
