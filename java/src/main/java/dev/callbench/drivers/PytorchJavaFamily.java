package dev.callbench.drivers;

import dev.callbench.Driver;

/** What both org.pytorch drivers report: runtime, artifact and version. */
abstract class PytorchJavaFamily implements Driver {
    @Override
    public final String runtime() {
        return "libtorch";
    }

    @Override
    public final String artifact() {
        return PytorchModels.ARTIFACT;
    }

    @Override
    public final String runtimeVersion() {
        return PytorchModels.version();
    }
}
