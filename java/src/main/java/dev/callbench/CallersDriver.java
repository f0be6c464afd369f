package dev.callbench;

import java.nio.file.Path;

/**
 * A driver whose model takes callers (contract 4): {@link DriverMain} runs it at any
 * {@code --callers N}; a plain {@link Driver} runs one caller and refuses more before
 * anything loads.
 */
public interface CallersDriver extends Driver {
    @Override
    TakesCallers load(Path model, Options options) throws Exception;
}
