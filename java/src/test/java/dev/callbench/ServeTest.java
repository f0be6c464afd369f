package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.callbench.Serve.Command;
import dev.callbench.Serve.Verb;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command dialogue and the standalone script, over a fake model. */
class ServeTest {
    @TempDir
    Path dir;

    private final SumDriver driver = new SumDriver();
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    @Test
    void parsesTheThreeCommands() throws UsageException {
        assertEquals(new Command(Verb.ROUND, 7), Serve.parse("round 7", 10));
        assertEquals(new Command(Verb.ROUND, 10), Serve.parse("  round\t10 \r", 10));
        assertEquals(new Command(Verb.LATENCIES, 1), Serve.parse("latencies 1", 10));
        assertEquals(new Command(Verb.END, 0), Serve.parse("end", 10));
    }

    @Test
    void badCommandsAreUsageErrors() {
        assertBad("java-x: usage: empty command; expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'", "");
        assertBad("java-x: usage: unknown command 'stop'; expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'",
                "stop");
        assertBad("java-x: usage: unknown command 'ROUND 3'; expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'",
                "ROUND 3");
        assertBad("java-x: usage: command 'round K' needs one count K, got 'round'", "round");
        assertBad("java-x: usage: command 'round K' needs one count K, got 'round 1 2'", "round 1 2");
        assertBad("java-x: usage: command 'latencies K' needs an integer K, got 'many'", "latencies many");
        assertBad("java-x: usage: command 'end' takes no argument, got 'end 3'", "end 3");
    }

    @Test
    void countsOutsideOneToNAreUsageErrors() {
        assertBad("java-x: usage: command 'round 0': K must be in 1..10 (--calls)", "round 0");
        assertBad("java-x: usage: command 'round 11': K must be in 1..10 (--calls)", "round 11");
        assertBad("java-x: usage: command 'latencies -1': K must be in 1..10 (--calls)", "latencies -1");
    }

    @Test
    void theStandaloneScriptRepeatsFullRoundsThenLatencies() throws Exception {
        Options options = Options.parse(new String[] {"--calls", "250000", "--repeats", "2",
            "--latencies", "l.i64"});
        assertEquals(List.of(new Command(Verb.ROUND, 250000), new Command(Verb.ROUND, 250000),
                new Command(Verb.LATENCIES, 100000), new Command(Verb.END, 0)),
                Serve.standaloneScript(options));
        Options plain = Options.parse(new String[] {"--calls", "5"});
        assertEquals(List.of(new Command(Verb.ROUND, 5), new Command(Verb.ROUND, 5),
                new Command(Verb.ROUND, 5), new Command(Verb.END, 0)), Serve.standaloneScript(plain));
    }

    @Test
    void answersEachCommandWithOneLine() throws Exception {
        Options options = options("--serve", "--calls", "3", "--batch", "2",
                "--latencies", dir.resolve("l.i64").toString());
        Runner rounds = serve(options, "round 3\nlatencies 2\nround 1\nend\nround 3\n");
        List<String> lines = lines();
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("{\"event\":\"ready\",\"load_ns\":42,\"warmup_calls\":3,\"warmup_ns\":9}",
                lines.get(0));
        // The round's start and end on the machine's monotonic clock (contract 4's processes).
        assertTrue(lines.get(1).matches("\\{\"event\":\"round\",\"calls\":3,\"ns\":\\d+,"
                + "\"cpu_ns\":\\d+,\"start_ns\":\\d+,\"end_ns\":\\d+}"), lines.get(1));
        Round first = rounds.done().get(0);
        assertEquals(first.startNs() + first.ns(), first.endNs());
        assertTrue(first.endNs() <= System.nanoTime());
        assertEquals("{\"event\":\"latencies\",\"calls\":2}", lines.get(2));
        assertTrue(lines.get(3).startsWith("{\"event\":\"round\",\"calls\":1,"), lines.get(3));
        // Nothing after 'end' was read; the rounds are the runner's, in the order run.
        assertEquals(List.of(3, 1), rounds.done().stream().map(Round::calls).toList());
        assertEquals(2, TestFiles.readLongs(dir.resolve("l.i64")).length);
        assertEquals(List.of(0, 2, 4, 0, 2, 0), driver.firsts);
    }

    @Test
    void theScriptAnswersNothing() throws Exception {
        Options options = options("--calls", "3", "--repeats", "2",
                "--latencies", dir.resolve("l.i64").toString());
        Runner rounds = runner(options);
        new Serve(options, rounds, new PrintStream(captured, true, StandardCharsets.UTF_8)).runScript();
        assertEquals(List.of(), lines());
        assertEquals(List.of(3, 3), rounds.done().stream().map(Round::calls).toList());
        assertEquals(3, TestFiles.readLongs(dir.resolve("l.i64")).length);
    }

    @Test
    void endOfInputEndsTheDialogueAsEndDoes() throws Exception {
        Runner rounds = serve(options("--serve", "--calls", "3"), "round 2\n");
        assertEquals(2, lines().size(), lines().toString());
        assertEquals(List.of(2), rounds.done().stream().map(Round::calls).toList());
    }

    @Test
    void latenciesWithoutAPathIsAUsageError() {
        UsageException e = assertThrows(UsageException.class,
                () -> serve(options("--serve", "--calls", "3"), "latencies 2\n"));
        assertEquals("latencies K needs --latencies PATH", e.problem());
    }

    @Test
    void aBadCommandStopsTheDialogueAfterTheAnswersSoFar() {
        assertThrows(UsageException.class,
                () -> serve(options("--serve", "--calls", "3"), "round 2\nrepeat\nround 1\n"));
        assertEquals(2, lines().size(), lines().toString());
        assertEquals(List.of(0, 1), driver.firsts);
    }

    private static Options options(String... args) throws UsageException {
        return Options.parse(args);
    }

    private Runner runner(Options options) throws CallbenchException {
        return new Rounds(driver.model(options.batch), Path.of("sum.model"),
                TestFiles.inputs(10), options.calls, options.batch);
    }

    private Runner serve(Options options, String commands) throws CallbenchException {
        Runner rounds = runner(options);
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        new Serve(options, rounds, out).serve(new BufferedReader(new StringReader(commands)), 42, new Warmup(3, 9));
        return rounds;
    }

    private List<String> lines() {
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static void assertBad(String expected, String line) {
        UsageException e = assertThrows(UsageException.class, () -> Serve.parse(line, 10));
        assertEquals(expected, e.withDriver("java-x").getMessage());
        assertEquals(2, e.exitStatus());
    }
}
