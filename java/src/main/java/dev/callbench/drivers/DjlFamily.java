package dev.callbench.drivers;

import dev.callbench.Driver;
import java.util.Map;

/** What both DJL drivers report: runtime, artifact, version and engine settings. */
abstract class DjlFamily implements Driver {
    @Override
    public final String runtime() {
        return "djl-pytorch";
    }

    @Override
    public final String artifact() {
        return "mlp_torchscript.pt";
    }

    @Override
    public final String runtimeVersion() {
        return DjlEngine.version();
    }

    @Override
    public final Map<String, Object> notes() {
        return DjlEngine.notes();
    }
}
