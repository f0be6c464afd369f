package dev.callbench.drivers;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;
import dev.callbench.Options;
import java.util.LinkedHashMap;
import java.util.Map;

/** Configures DJL's PyTorch engine the same way for both DJL drivers, before it loads. */
final class DjlEngine {
    static final String NAME = "PyTorch";

    private DjlEngine() {}

    /**
     * Sets the thread counts DJL reads when the engine first loads (documented
     * system properties), and refuses to run unless DJL is offline, so LibTorch
     * can only come from the pytorch-native-cpu jar on the classpath.
     */
    static void configure(Options options) {
        if (!Boolean.getBoolean("ai.djl.offline")) {
            throw new IllegalStateException("DJL must run with -Dai.djl.offline=true "
                    + "(python -m callbench.languages.jvm_host sets it) so it never downloads LibTorch");
        }
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(options.threads));
        System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        // ai.djl.pytorch.graph_optimizer stays at DJL's default (on): DJL's
        // performance guide suggests turning it off for latency, but on this
        // model it gained nothing (measured, see java/README.md).
    }

    /** "DJL x.y.z, LibTorch a.b.c", known once the engine has loaded. */
    static String version() {
        return Engine.getDjlVersion() + " (LibTorch " + Engine.getEngine(NAME).getVersion() + ")";
    }

    static Map<String, Object> notes() {
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("djl_version", Engine.getDjlVersion());
        notes.put("libtorch_version", Engine.getEngine(NAME).getVersion());
        // What LibTorch actually uses, read back from it (not our setting).
        notes.put("intra_op_threads", JniUtils.getNumThreads());
        notes.put("graph_optimizer", System.getProperty("ai.djl.pytorch.graph_optimizer", "true"));
        return notes;
    }
}
