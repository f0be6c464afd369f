package dev.callbench.drivers;

import dev.callbench.DataException;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The signature a TorchScript file carries: callbench writes it, when it traces
 * a user's program, as the extra file {@code callbench_signature.txt}, one line
 * per tensor ({@code callbench.input.0 board float32 8 8 8}). A TorchScript file
 * is a zip archive, so it is read here with {@code java.util.zip} for both
 * org.pytorch and DJL (DJL has no extra-files API). Our MLP's
 * {@code mlp_torchscript.pt} carries none: it is the contract's
 * {@code x float32 [2] -> y float32 [1]}.
 */
final class TorchScriptSignature {
    static final String FILE = "callbench_signature.txt";

    private TorchScriptSignature() {}

    static Signature read(Path model) throws DataException {
        String text = extraFile(model);
        if (text == null) {
            return new Signature(List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})),
                    List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})));
        }
        Map<String, String> entries = new HashMap<>();
        for (String line : text.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                entries.put(line.substring(0, space), line.substring(space + 1).strip());
            }
        }
        Signature signature = new Signature(tensors(model, entries, "input"),
                tensors(model, entries, "output"));
        if (signature.inputs().isEmpty() || signature.outputs().isEmpty()) {
            throw new DataException(model, FILE + " names no input or no output");
        }
        return signature;
    }

    /** The extra file's text, or null when the archive has none. */
    private static String extraFile(Path model) throws DataException {
        try (ZipFile archive = new ZipFile(model.toFile())) {
            // Entries sit under the archive's own folder name: <name>/extra/<file>.
            for (Enumeration<? extends ZipEntry> all = archive.entries(); all.hasMoreElements();) {
                ZipEntry entry = all.nextElement();
                if (entry.getName().endsWith("/extra/" + FILE)) {
                    return new String(archive.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return null;
        } catch (IOException e) {
            throw new DataException(model, "is not a TorchScript archive (" + e.getMessage() + ")");
        }
    }

    private static List<Tensor> tensors(Path model, Map<String, String> entries, String role)
            throws DataException {
        List<Tensor> found = new ArrayList<>();
        for (int k = 0;; k++) {
            String key = "callbench." + role + "." + k;
            String entry = entries.get(key);
            if (entry == null) {
                return found;
            }
            String[] words = entry.split(" +");
            Dtype dtype = words.length < 2 ? null : Dtype.named(words[1]).orElse(null);
            if (dtype == null) {
                throw new DataException(model, key + " is '" + entry + "', not '<name> <dtype> <size>...'");
            }
            long[] shape = new long[words.length - 2];
            for (int d = 0; d < shape.length; d++) {
                try {
                    shape[d] = Long.parseLong(words[d + 2]);
                } catch (NumberFormatException e) {
                    shape[d] = -1;
                }
                if (shape[d] < 0) {
                    throw new DataException(model, key + " has size '" + words[d + 2] + "'");
                }
            }
            found.add(new Tensor(words[0], dtype, shape));
        }
    }
}
