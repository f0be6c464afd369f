package dev.callbench.pytorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.pytorch.IValue;
import org.pytorch.Module;
import org.pytorch.Tensor;

/**
 * Native memory is given back: a module on destroy() or, once unreachable,
 * through fbjni's DestructorThread; each output's native tensor right after
 * the call (Java gets a copy). Checked with the peer's live-module count and
 * the process's resident set size, which a leak would grow well past the
 * bounds below.
 */
class NativeMemoryTest {
    private static long rssMiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        throw new IOException("/proc/self/status has no VmRSS");
    }

    private static void loadUseDestroy(Path path, int times) {
        Tensor x = Tensor.fromBlob(new float[] {1f, 2f}, new long[] {1, 2});
        for (int i = 0; i < times; i++) {
            Module module = Module.load(path.toString());
            assertArrayEquals(new float[] {1.5f, 2.5f},
                    module.forward(IValue.from(x)).toTensor().getDataAsFloatArray());
            module.destroy();
        }
    }

    @Test
    void loadingAndDestroyingModulesDoesNotGrowMemory() throws Exception {
        Path path = NativePeerFiles.module("weights4mib.pt");
        LibTorch.ensureLoaded();
        loadUseDestroy(path, 20);  // allocator pools and code paths warmed up
        long before = rssMiB();
        loadUseDestroy(path, 200);
        long growth = rssMiB() - before;
        // Each module holds 4 MiB of weights: 200 leaked ones would be 800 MiB.
        assertTrue(growth < 100, "RSS grew by " + growth + " MiB over 200 load/destroy cycles");
    }

    @Test
    void destroyedAndCollectedModulesAreFreed() throws Exception {
        Path path = NativePeerFiles.module("roundtrip.pt");
        LibTorch.ensureLoaded();
        long baseline = LibTorch.liveModules();
        Module kept = Module.load(path.toString());
        assertEquals(baseline + 1, LibTorch.liveModules());
        kept.destroy();
        assertEquals(baseline, LibTorch.liveModules());
        for (int i = 0; i < 20; i++) {
            Module.load(path.toString());  // dropped without destroy()
        }
        assertTrue(LibTorch.liveModules() >= baseline + 1, "dropped modules freed before any GC");
        // fbjni's DestructorThread frees them once the GC has found them unreachable.
        for (int attempt = 0; attempt < 100 && LibTorch.liveModules() > baseline; attempt++) {
            System.gc();
            Thread.sleep(50);
        }
        assertEquals(baseline, LibTorch.liveModules(), "modules left after collection");
    }

    @Test
    void outputsDoNotAccumulateNativeMemory() throws Exception {
        Module module = NativePeerFiles.loadRoundTrip();
        try {
            // 256 KiB per output: 4000 outputs held natively would be 1000 MiB. The
            // Java copies are garbage collected every 100 calls (25 MiB).
            int n = 64 * 1024;
            Tensor x = Tensor.fromBlob(new float[n], new long[] {n});
            IValue input = IValue.from(x);
            long before = rssMiB();
            for (int i = 0; i < 4000; i++) {
                module.forward(input).toTensor();
                if (i % 100 == 99) {
                    System.gc();
                }
            }
            System.gc();
            long growth = rssMiB() - before;
            assertTrue(growth < 300, "RSS grew by " + growth + " MiB over 4000 outputs of 256 KiB");
        } finally {
            module.destroy();
        }
    }
}
