package dev.callbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command dialogue of docs/contract.md ("Serving rounds"), and the
 * standalone script that runs the same code without {@code --serve}. In the
 * dialogue, the ready line comes first and each command line is answered by
 * one JSON line, flushed: {@code round K}, {@code latencies K}, {@code paced FILE
 * [START]} (contract 6, {@link Pacing}) and {@code end} (or end of input). The script answers nothing: a standalone run prints its
 * result line alone. Both end at {@code end}; the rounds are the runner's.
 */
public final class Serve {
    /**
     * One command: {@code round K}, {@code latencies K}, {@code paced FILE [START]} (its
     * schedule and start, null when absent) or {@code end} (calls 0).
     */
    public record Command(Verb verb, int calls, Path schedule, Long start) {
        public Command(Verb verb, int calls) {
            this(verb, calls, null, null);
        }
    }

    public enum Verb { ROUND, LATENCIES, PACED, END }

    private static final String EXPECTED = "expected 'round K', 'latencies K', 'paced FILE [START]' or 'end'";

    private final Options options;
    private final Runner rounds;
    private final PrintStream out;

    public Serve(Options options, Runner rounds, PrintStream out) {
        this.options = options;
        this.rounds = rounds;
        this.out = out;
    }

    /**
     * The standalone run as commands: {@code round N} R times,
     * {@code latencies min(N, 100000)} if {@code --latencies} is given, {@code end}.
     */
    public static List<Command> standaloneScript(Options options) {
        List<Command> script = new ArrayList<>();
        for (int r = 0; r < options.repeats; r++) {
            script.add(new Command(Verb.ROUND, options.calls));
        }
        if (options.latencies != null) {
            script.add(new Command(Verb.LATENCIES, options.latencyCalls()));
        }
        script.add(new Command(Verb.END, 0));
        return script;
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
        if (name.equals("paced")) {
            return parsePaced(words, line);
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

    /** {@code paced FILE [START]}: START, when given, an integer of ns. */
    private static Command parsePaced(String[] words, String line) throws UsageException {
        if (words.length != 2 && words.length != 3) {
            throw new UsageException("command 'paced FILE [START]' needs a file and at most a start, got '"
                    + line.strip() + "'");
        }
        Long start = null;
        if (words.length == 3) {
            try {
                start = Long.parseLong(words[2]);
            } catch (NumberFormatException e) {
                throw new UsageException("paced FILE START needs START in ns, got '" + words[2] + "'");
            }
        }
        return new Command(Verb.PACED, 0, Path.of(words[1]), start);
    }

    /** Prints the ready line, then answers {@code commands} until {@code end} or end of input. */
    public void serve(BufferedReader commands, long loadNs, Warmup warmup) throws CallbenchException {
        Map<String, Object> ready = event("ready", "load_ns", loadNs);
        ready.put("warmup_calls", warmup.calls());
        ready.put("warmup_ns", warmup.ns());
        answer(ready);
        while (true) {
            String line;
            try {
                line = commands.readLine();
            } catch (IOException e) {
                throw new DataException(Path.of("/dev/stdin"), "cannot be read (" + e + ")", e);
            }
            Command command = line == null ? new Command(Verb.END, 0) : parse(line, rounds.maxCalls());
            if (!execute(command, true)) {
                return;
            }
        }
    }

    /** Runs the standalone script, answering nothing. */
    public void runScript() throws CallbenchException {
        for (Command command : standaloneScript(options)) {
            if (!execute(command, false)) {
                return;
            }
        }
    }

    /** Runs one command, its answer printed when {@code answering}; false at {@code end}. */
    private boolean execute(Command command, boolean answering) throws CallbenchException {
        switch (command.verb()) {
            case ROUND -> {
                Round round = rounds.round(command.calls());
                if (answering) {
                    Map<String, Object> fields = new LinkedHashMap<>();
                    fields.put("event", "round");
                    fields.putAll(round.fields());
                    fields.put("end_ns", round.endNs());
                    answer(fields);
                }
                return true;
            }
            case LATENCIES -> {
                if (options.latencies == null) {
                    throw new UsageException("latencies K needs --latencies PATH");
                }
                Outputs.writeInt64s(options.latencies, rounds.latencies(command.calls()));
                if (answering) {
                    answer(event("latencies", "calls", (long) command.calls()));
                }
                return true;
            }
            case PACED -> {
                if (options.latencies == null) {
                    throw new UsageException("paced FILE needs --latencies PATH");
                }
                Pacing pacing = rounds.paced(Pacing.readSchedule(command.schedule()), command.start());
                Outputs.writeInt64s(options.latencies, pacing.times());
                if (answering) {
                    answer(pacing.answer());
                }
                return true;
            }
            default -> {
                return false;
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
        out.println(Result.json(fields));
        out.flush();
    }
}
