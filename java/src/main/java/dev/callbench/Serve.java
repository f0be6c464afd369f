package dev.callbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command dialogue of docs/contract.md ("Serving rounds"), and the
 * standalone script that runs the same code without {@code --serve}. After
 * the ready line, each command line is answered by one JSON line, flushed:
 * {@code round K}, {@code latencies K}, and {@code end} (or end of input),
 * which writes {@code --outputs} and prints the result line.
 */
public final class Serve {
    /** One command: {@code round K}, {@code latencies K} or {@code end} (calls 0). */
    public record Command(Verb verb, int calls) {}

    public enum Verb { ROUND, LATENCIES, END }

    private static final String EXPECTED = "expected 'round K', 'latencies K' or 'end'";

    private final Driver driver;
    private final Options options;
    private final Runner rounds;
    private final long loadNs;
    private final PrintStream out;

    public Serve(Driver driver, Options options, Runner rounds, long loadNs, PrintStream out) {
        this.driver = driver;
        this.options = options;
        this.rounds = rounds;
        this.loadNs = loadNs;
        this.out = out;
    }

    /**
     * The standalone run as a script of commands: {@code round N} R times,
     * {@code latencies min(N, 100000)} if {@code --latencies} is given, {@code end}.
     */
    public static BufferedReader script(Options options) {
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < options.repeats; r++) {
            lines.add("round " + options.calls);
        }
        if (options.latencies != null) {
            lines.add("latencies " + options.latencyCalls());
        }
        lines.add("end");
        return new BufferedReader(new StringReader(String.join("\n", lines) + "\n"));
    }

    /** One command line; an unknown command, or K outside 1..maxCalls, is a usage error. */
    public static Command parse(String line, int maxCalls) throws UsageException {
        String[] words = line.strip().split("\\s+");
        String name = words[0];
        if (name.equals("end")) {
            if (words.length != 1) {
                throw new UsageException("command 'end' takes no argument, got '"
                        + line.strip() + "'");
            }
            return new Command(Verb.END, 0);
        }
        Verb verb = switch (name) {
            case "round" -> Verb.ROUND;
            case "latencies" -> Verb.LATENCIES;
            default -> throw new UsageException((name.isEmpty() ? "empty command"
                    : "unknown command '" + line.strip() + "'") + "; " + EXPECTED);
        };
        if (words.length != 2) {
            throw new UsageException("command '" + name + " K' needs one count K, got '"
                    + line.strip() + "'");
        }
        int calls;
        try {
            calls = Integer.parseInt(words[1]);
        } catch (NumberFormatException e) {
            throw new UsageException("command '" + name + " K' needs an integer K, got '"
                    + words[1] + "'");
        }
        if (calls < 1 || calls > maxCalls) {
            throw new UsageException("command '" + name + " " + calls + "': K must be in 1.."
                    + maxCalls + " (--calls)");
        }
        return new Command(verb, calls);
    }

    /**
     * Prints the ready line, then answers {@code commands} until {@code end} or
     * end of input, which writes the outputs and prints the result line.
     */
    public void run(BufferedReader commands) throws CallbenchException {
        answer(event("ready", "load_ns", loadNs));
        String id = driver.id();
        while (true) {
            String line;
            try {
                line = commands.readLine();
            } catch (IOException e) {
                throw new DataException(Path.of("/dev/stdin"), "cannot be read (" + e + ")", e);
            }
            Command command = line == null ? new Command(Verb.END, 0) : parse(line, rounds.maxCalls());
            switch (command.verb()) {
                case ROUND -> {
                    Round round = rounds.round(command.calls());
                    Map<String, Object> fields = new LinkedHashMap<>();
                    fields.put("event", "round");
                    fields.put("calls", round.calls());
                    fields.put("ns", round.ns());
                    fields.put("cpu_ns", round.cpuNs());
                    answer(fields);
                }
                case LATENCIES -> {
                    if (options.latencies == null) {
                        throw new UsageException("latencies K needs --latencies PATH");
                    }
                    long[] each = rounds.latencies(command.calls());
                    Outputs.writeLongs(options.latencies, each);
                    answer(event("latencies", "calls", (long) command.calls()));
                }
                case END -> {
                    if (options.outputs != null) {
                        rounds.writeOutputs(options.outputs);
                    }
                    answer(Result.line(id, options, driver.runtimeVersion(), loadNs, rounds.done(),
                            driver.notes()));
                    return;
                }
            }
        }
    }

    private static Map<String, Object> event(String name, String key, long value) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("event", name);
        fields.put(key, value);
        return fields;
    }

    private void answer(Map<String, Object> fields) {
        answer(Result.json(fields));
    }

    private void answer(String line) {
        out.println(line);
        out.flush();
    }
}
