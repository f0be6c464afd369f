package dev.callbench.pytorch;

import com.facebook.soloader.nativeloader.NativeLoader;
import com.facebook.soloader.nativeloader.SystemDelegate;

/**
 * Loading the project's native peer for {@code org.pytorch} (libpytorch_jni,
 * libfbjni from {@code java.library.path}) and the LibTorch-wide settings the
 * {@code pytorch_java_only} jar has no Java API for on Linux.
 */
public final class LibTorch {
    private static final String PEER_LIBRARY = "pytorch_jni";
    private static boolean loaded;

    private LibTorch() {}

    /**
     * Makes the jar's loader and our natives ready; idempotent. Call before the
     * first {@code Module.load} so that fbjni's destructor thread is a daemon.
     *
     * @throws UnsatisfiedLinkError if libpytorch_jni is not on {@code java.library.path}
     */
    public static synchronized void ensureLoaded() {
        if (loaded) {
            return;
        }
        NativeLoader.initIfUninitialized(new SystemDelegate());
        startDestructorThreadAsDaemon();
        NativeLoader.loadLibrary(PEER_LIBRARY);
        loaded = true;
    }

    /** LibTorch's intra-op threads (at::set_num_threads), for the calling thread's runtime. */
    public static void setNumThreads(int threads) {
        ensureLoaded();
        nativeSetNumThreads(threads);
    }

    public static int getNumThreads() {
        ensureLoaded();
        return nativeGetNumThreads();
    }

    /** The LibTorch version the peer was built against (TORCH_VERSION). */
    public static String version() {
        ensureLoaded();
        return nativeVersion();
    }

    /**
     * fbjni starts its "HybridData DestructorThread" in a static initialiser
     * and never marks it daemon; a thread inherits that flag from its creator,
     * so initialising the class from a daemon thread keeps it from holding the
     * JVM open after main returns.
     */
    private static void startDestructorThreadAsDaemon() {
        ClassLoader loader = LibTorch.class.getClassLoader();
        Thread starter = new Thread(() -> {
            try {
                Class.forName("com.facebook.jni.DestructorThread", true, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("fbjni-java-only is not on the classpath", e);
            }
        }, "callbench-fbjni-init");
        starter.setDaemon(true);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * How many modules the peer holds: loaded and not yet freed by
     * {@code destroy()} or by fbjni's DestructorThread after collection.
     */
    public static long liveModules() {
        ensureLoaded();
        return nativeLiveModules();
    }

    private static native long nativeLiveModules();

    private static native void nativeSetNumThreads(int threads);

    private static native int nativeGetNumThreads();

    private static native String nativeVersion();
}
