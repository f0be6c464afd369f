package dev.callbench.pytorch;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.pytorch.Module;

/**
 * Where scripts/build_java_native.py put the native peer and the test
 * modules (Surefire passes the folder as {@code callbench.javaNative}). A
 * missing build fails the test with what to run, rather than skipping it.
 */
final class NativePeerFiles {
    private NativePeerFiles() {}

    static Path root() {
        String dir = System.getProperty("callbench.javaNative");
        if (dir == null) {
            fail("system property callbench.javaNative is not set (run the tests through Maven)");
        }
        Path root = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("lib/libpytorch_jni.so"))) {
            fail(root + "/lib/libpytorch_jni.so missing: run python scripts/build_java_native.py");
        }
        return root;
    }

    static Path module(String name) {
        Path path = root().resolve("test-modules").resolve(name);
        if (!Files.isRegularFile(path)) {
            fail(path + " missing: run python scripts/build_java_native.py");
        }
        return path;
    }

    /** roundtrip.pt: forward(x) = x + 1 and one exported method per IValue kind. */
    static Module loadRoundTrip() {
        Path path = module("roundtrip.pt");
        LibTorch.ensureLoaded();
        return Module.load(path.toString());
    }
}
