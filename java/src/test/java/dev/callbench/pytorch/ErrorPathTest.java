package dev.callbench.pytorch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/** Bad files, bad inputs and unsupported kinds raise Java exceptions that say what is wrong. */
class ErrorPathTest {
    private static void assertMentions(Throwable e, String... words) {
        String message = String.valueOf(e.getMessage());
        for (String word : words) {
            assertTrue(message.contains(word), "message should mention '" + word + "': " + message);
        }
    }

    @Test
    void missingFileNamesThePath(@TempDir Path dir) {
        LibTorch.ensureLoaded();
        Path missing = dir.resolve("nope.pt");
        var e = assertThrows(IllegalArgumentException.class, () -> Module.load(missing.toString()));
        assertMentions(e, missing.toString());
    }

    @Test
    void notTorchScriptNamesThePath(@TempDir Path dir) throws IOException {
        LibTorch.ensureLoaded();
        Path junk = Files.writeString(dir.resolve("junk.pt"), "not a zip archive");
        var e = assertThrows(IllegalArgumentException.class, () -> Module.load(junk.toString()));
        assertMentions(e, junk.toString(), "cannot load");
    }

    @Test
    void wrongInputsRaiseNotCrash() {
        Module module = NativePeerFiles.loadRoundTrip();
        try {
            // forward(x: Tensor) given a string, given nothing, given two tensors
            assertThrows(RuntimeException.class, () -> module.forward(IValue.from("text")));
            assertThrows(RuntimeException.class, () -> module.forward());
            Tensor t = Tensor.fromBlob(new float[] {1f}, new long[] {1});
            assertThrows(RuntimeException.class, () -> module.forward(IValue.from(t), IValue.from(t)));
            var e = assertThrows(IllegalArgumentException.class, () -> module.runMethod("no_such_method"));
            assertMentions(e, "no_such_method");
            // The module still works after the failures.
            assertDoesNotThrow(() -> module.forward(IValue.from(t)));
        } finally {
            module.destroy();
        }
    }

    @Test
    void shapeMismatchInsideLibTorchRaises() {
        Module module = NativePeerFiles.loadRoundTrip();
        try {
            // tensor_sum adds tensors of different shapes: broadcasting fails inside LibTorch
            IValue list = IValue.listFrom(Tensor.fromBlob(new float[] {1f, 2f}, new long[] {2}),
                    Tensor.fromBlob(new float[] {1f, 2f, 3f}, new long[] {3}));
            var e = assertThrows(RuntimeException.class, () -> module.runMethod("tensor_sum", list));
            assertMentions(e, "size");
        } finally {
            module.destroy();
        }
    }

    @Test
    void unsupportedOutputKindsAreNamed() {
        Module module = NativePeerFiles.loadRoundTrip();
        try {
            var dict = assertThrows(UnsupportedOperationException.class,
                    () -> module.runMethod("as_dict", IValue.from(3L)));
            assertMentions(dict, "GenericDict");
            Tensor x = Tensor.fromBlob(new float[] {-1f, 1f}, new long[] {2});
            var bool = assertThrows(UnsupportedOperationException.class,
                    () -> module.runMethod("positive", IValue.from(x)));
            assertMentions(bool, "Bool");
        } finally {
            module.destroy();
        }
    }

    @Test
    void unsupportedInputKindsAreNamed() {
        Module module = NativePeerFiles.loadRoundTrip();
        try {
            IValue dict = IValue.dictStringKeyFrom(Map.of("n", IValue.from(1L)));
            var e = assertThrows(UnsupportedOperationException.class, () -> module.forward(dict));
            assertMentions(e, "DictStringKey");
        } finally {
            module.destroy();
        }
    }

    @Test
    void useAfterDestroyRaisesAndDestroyTwiceIsHarmless() {
        Module module = NativePeerFiles.loadRoundTrip();
        module.destroy();
        assertDoesNotThrow(module::destroy);
        Tensor t = Tensor.fromBlob(new float[] {1f}, new long[] {1});
        var e = assertThrows(IllegalStateException.class, () -> module.forward(IValue.from(t)));
        assertMentions(e, "destroyed");
    }

    @Test
    void threadsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> LibTorch.setNumThreads(0));
        int before = LibTorch.getNumThreads();
        LibTorch.setNumThreads(1);
        assertTrue(LibTorch.getNumThreads() == 1);
        LibTorch.setNumThreads(before);
    }
}
