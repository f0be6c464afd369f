package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void defaultsFollowTheContract() throws UsageException {
        Options o = Options.parse(new String[0]);
        assertEquals(Path.of("models"), o.models);
        assertEquals(1_000_000, o.calls);
        assertEquals(10_000, o.warmup);
        assertEquals(2.0, o.warmupTime);
        assertEquals(3, o.repeats);
        assertEquals(1, o.batch);
        assertEquals(1, o.threads);
        assertNull(o.outputs);
        assertNull(o.latencies);
        assertFalse(o.serve);
        assertFalse(o.debug);
    }

    @Test
    void readsEveryOptionInBothSpellings() throws UsageException {
        Options o = Options.parse(new String[] {"--models", "m", "--calls=7", "--warmup", "0",
            "--warmup-time=0.25", "--repeats", "2", "--batch=4", "--threads", "3", "--outputs", "o.f32",
            "--latencies=l.i64", "--debug", "--serve"});
        assertEquals(Path.of("m"), o.models);
        assertEquals(7, o.calls);
        assertEquals(0, o.warmup);
        assertEquals(0.25, o.warmupTime);
        assertEquals(2, o.repeats);
        assertEquals(4, o.batch);
        assertEquals(3, o.threads);
        assertEquals(Path.of("o.f32"), o.outputs);
        assertEquals(Path.of("l.i64"), o.latencies);
        assertTrue(o.debug);
        assertTrue(o.serve);
        assertEquals(28, o.samplesNeeded());
        assertEquals(7, o.latencyCalls());
    }

    @Test
    void theLastOfARepeatedOptionWins() throws UsageException {
        assertEquals(7, Options.parse(new String[] {"--calls", "5", "--calls=7"}).calls);
    }

    @Test
    void anAtFileIsAnUnknownOptionNotAFileToRead() {
        assertUsage("java-x: usage: unknown option '@args.txt'", "@args.txt");
    }

    @Test
    void gatheredSizesTheBatchersCallsOnly() throws UsageException {
        assertUsage("java-x: usage: " + Batcher.GATHERED_ALONE, "--gathered");
        assertTrue(Options.parse(new String[] {"--max-delay", "10", "--gathered"}).gathered);
    }

    @Test
    void helpIsAskedNotAnError() throws UsageException {
        assertTrue(Options.parse(new String[] {"--help"}).help);
        assertEquals("usage: java-x [--models DIR] [--calls N] [--warmup W] [--warmup-time S] [--repeats R]"
                + " [--batch B] [--threads T] [--callers N] [--max-delay US] [--gathered] [--outputs PATH] [--latencies PATH]"
                + " [--serve] [--debug]",
                Options.helpLine("java-x"));
    }

    @Test
    void oneCallerIsTheDefaultAndIsTaken() throws UsageException {
        assertEquals(1, Options.parse(new String[] {}).callers);
        assertEquals(1, Options.parse(new String[] {"--callers", "1"}).callers);
    }

    @Test
    void latencyCallsAreCapped() throws UsageException {
        assertEquals(100_000, Options.parse(new String[] {"--calls", "250000"}).latencyCalls());
    }

    @Test
    void usageErrorsNameTheOptionAndExitTwo() {
        assertUsage("java-x: usage: unknown option '--frobnicate'", "--frobnicate", "1");
        assertUsage("java-x: usage: --calls needs a value", "--calls");
        assertUsage("java-x: usage: unknown option '--hel'", "--hel");  // no abbreviation
        assertUsage("java-x: usage: unknown option 'calls'", "calls");
        assertUsage("java-x: usage: unknown option '--bogus'", "--bogus=1");
        assertUsage("java-x: usage: --calls needs an integer, got '--serve'", "--calls", "--serve");
        assertUsage("java-x: usage: --serve takes no value", "--serve=1");
        assertUsage("java-x: usage: --calls needs an integer, got 'many'", "--calls", "many");
        assertUsage("java-x: usage: --calls must be >= 1, got 0", "--calls", "0");
        assertUsage("java-x: usage: --warmup must be >= 0, got -1", "--warmup", "-1");
        assertUsage("java-x: usage: --warmup-time needs a number, got 'x'", "--warmup-time", "x");
        assertUsage("java-x: usage: --warmup-time needs a number, got 'Infinity'", "--warmup-time",
                "Infinity");
        assertUsage("java-x: usage: --warmup-time must be in 0..1000000, got -1", "--warmup-time", "-1");
        assertUsage("java-x: usage: --repeats must be >= 1, got 0", "--repeats", "0");
        assertUsage("java-x: usage: --batch must be >= 1, got 0", "--batch", "0");
        assertUsage("java-x: usage: --threads must be >= 1, got 0", "--threads=0");
        assertUsage("java-x: usage: --callers must be >= 1, got 0", "--callers", "0");
        assertUsage("java-x: usage: --calls x --batch is too large for one run",
                "--calls", "1000000000", "--batch", "4");
    }

    private static void assertUsage(String expected, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> Options.parse(args));
        assertEquals(expected, e.withDriver("java-x").getMessage());
        assertEquals(2, e.exitStatus());
    }
}
