package dev.callbench.drivers;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * ONNX Runtime's C API ({@code onnxruntime_c_api.h}) through the Foreign
 * Function & Memory API, no JNI: {@code OrtGetApiBase()->GetApi(21)} gives the
 * {@code OrtApi} table of function pointers, and each function the driver uses
 * is a downcall handle made from its place in that table. The table only grows
 * between releases, so the places read from version 21's header hold for every
 * library since. Each {@code OrtStatus*} that is not NULL becomes an
 * {@link OrtCApi.Failure} with the runtime's message, and is released.
 */
// Calling native code is what the class is for: the driver's JVM is started
// with --enable-native-access=ALL-UNNAMED.
@SuppressWarnings("restricted")
final class OrtCApi {
    /** The OrtApi version asked for: 21 is ONNX Runtime 1.21, the header the places come from. */
    static final int API_VERSION = 21;
    private static final int LOGGING_ERROR = 3; // ORT_LOGGING_LEVEL_ERROR
    private static final int SEQUENTIAL = 0; // ORT_SEQUENTIAL
    private static final int ENABLE_ALL = 99; // ORT_ENABLE_ALL
    private static final int ARENA_ALLOCATOR = 1; // OrtArenaAllocator
    private static final int MEM_TYPE_DEFAULT = 0; // OrtMemTypeDefault
    private static final long MAX_STRING = 1 << 16;

    /** A call that returned an OrtStatus: its message, one line. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String function, String message) {
            super(function + ": " + message);
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();

    /**
     * The functions used, each by its C name and its place in struct OrtApi
     * (counted in onnxruntime_c_api.h of 1.21), with its C signature. Every one
     * but the releases and GetErrorMessage returns an OrtStatus*.
     */
    private enum Function {
        GetErrorMessage(2, ADDRESS, ADDRESS),
        CreateEnv(3, ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
        CreateSession(7, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
        Run(9, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS),
        CreateSessionOptions(10, ADDRESS, ADDRESS),
        SetSessionExecutionMode(13, ADDRESS, ADDRESS, JAVA_INT),
        SetSessionGraphOptimizationLevel(23, ADDRESS, ADDRESS, JAVA_INT),
        SetIntraOpNumThreads(24, ADDRESS, ADDRESS, JAVA_INT),
        SetInterOpNumThreads(25, ADDRESS, ADDRESS, JAVA_INT),
        SessionGetInputCount(30, ADDRESS, ADDRESS, ADDRESS),
        SessionGetOutputCount(31, ADDRESS, ADDRESS, ADDRESS),
        SessionGetInputTypeInfo(33, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS),
        SessionGetOutputTypeInfo(34, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS),
        SessionGetInputName(36, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
        SessionGetOutputName(37, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
        CreateTensorWithDataAsOrtValue(49, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_INT, ADDRESS),
        CastTypeInfoToTensorInfo(55, ADDRESS, ADDRESS, ADDRESS),
        GetTensorElementType(60, ADDRESS, ADDRESS, ADDRESS),
        GetDimensionsCount(61, ADDRESS, ADDRESS, ADDRESS),
        GetDimensions(62, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG),
        GetTensorTypeAndShape(65, ADDRESS, ADDRESS, ADDRESS),
        CreateCpuMemoryInfo(69, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
        AllocatorFree(76, ADDRESS, ADDRESS, ADDRESS),
        GetAllocatorWithDefaultOptions(78, ADDRESS, ADDRESS),
        ReleaseEnv(92, null, ADDRESS),
        ReleaseStatus(93, null, ADDRESS),
        ReleaseMemoryInfo(94, null, ADDRESS),
        ReleaseSession(95, null, ADDRESS),
        ReleaseValue(96, null, ADDRESS),
        ReleaseTypeInfo(98, null, ADDRESS),
        ReleaseTensorTypeAndShapeInfo(99, null, ADDRESS),
        ReleaseSessionOptions(100, null, ADDRESS);

        final int place;
        final FunctionDescriptor descriptor;

        Function(int place, MemoryLayout result, MemoryLayout... arguments) {
            this.place = place;
            this.descriptor = result == null
                    ? FunctionDescriptor.ofVoid(arguments)
                    : FunctionDescriptor.of(result, arguments);
        }
    }

    private final MethodHandle[] handles = new MethodHandle[Function.values().length];
    // The timed call's handle, a final field so the JIT sees a constant.
    private final MethodHandle run;
    private final String version;

    /** Loads {@code library} (libonnxruntime.so) for the life of the process. */
    OrtCApi(Path library) throws Failure {
        SymbolLookup symbols = SymbolLookup.libraryLookup(library, Arena.global());
        MemorySegment getApiBase = symbols.find("OrtGetApiBase")
                .orElseThrow(() -> new Failure("OrtGetApiBase", library + " does not export it"));
        try {
            MemorySegment base = ((MemorySegment) LINKER
                    .downcallHandle(getApiBase, FunctionDescriptor.of(ADDRESS)).invokeExact())
                    .reinterpret(2 * ADDRESS.byteSize());
            MethodHandle getApi = LINKER.downcallHandle(base.getAtIndex(ADDRESS, 0),
                    FunctionDescriptor.of(ADDRESS, JAVA_INT));
            MethodHandle getVersion = LINKER.downcallHandle(base.getAtIndex(ADDRESS, 1),
                    FunctionDescriptor.of(ADDRESS));
            MemorySegment api = (MemorySegment) getApi.invokeExact(API_VERSION);
            if (api.equals(MemorySegment.NULL)) {
                throw new Failure("GetApi",
                        library + " does not offer OrtApi version " + API_VERSION);
            }
            int entries = 1 + Arrays.stream(Function.values()).mapToInt(f -> f.place).max()
                    .orElse(0);
            MemorySegment table = api.reinterpret(entries * ADDRESS.byteSize());
            for (Function function : Function.values()) {
                handles[function.ordinal()] = LINKER.downcallHandle(
                        table.getAtIndex(ADDRESS, function.place), function.descriptor);
            }
            this.run = handles[Function.Run.ordinal()];
            this.version = string((MemorySegment) getVersion.invokeExact());
        } catch (Failure e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("calling OrtGetApiBase failed", e);
        }
    }

    private MethodHandle handle(Function function) {
        return handles[function.ordinal()];
    }

    private static String string(MemorySegment chars) {
        return chars.reinterpret(MAX_STRING).getString(0);
    }

    /** The library's own version string, e.g. 1.29.0. */
    String version() {
        return version;
    }

    /** Throws the status's message when {@code status} is not NULL (a failed call). */
    void check(String function, MemorySegment status) throws Failure {
        if (!status.equals(MemorySegment.NULL)) {
            throw failure(function, status);
        }
    }

    private Failure failure(String function, MemorySegment status) {
        try {
            MethodHandle message = handle(Function.GetErrorMessage);
            String text = string((MemorySegment) message.invokeExact(status));
            handle(Function.ReleaseStatus).invokeExact(status);
            return new Failure(function, text);
        } catch (Throwable e) {
            throw new IllegalStateException("reading an OrtStatus failed", e);
        }
    }

    /** Calls a function that returns an OrtStatus and whose last argument is an out pointer. */
    private MemorySegment created(Function function, Arena arena, Object... args)
            throws Failure {
        MemorySegment out = arena.allocate(ADDRESS);
        Object[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = out;
        status(function, all);
        return out.get(ADDRESS, 0);
    }

    /** Calls a function that returns an OrtStatus (setup only: boxed arguments). */
    private void status(Function function, Object... args) throws Failure {
        try {
            check(function.name(), (MemorySegment) handle(function).invokeWithArguments(args));
        } catch (Failure e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(function + " failed", e);
        }
    }

    private void release(Function function, MemorySegment object) {
        if (object.equals(MemorySegment.NULL)) {
            return;
        }
        try {
            handle(function).invokeExact(object);
        } catch (Throwable e) {
            throw new IllegalStateException("releasing an ONNX Runtime object failed", e);
        }
    }

    MemorySegment createEnv(Arena arena) throws Failure {
        return created(Function.CreateEnv, arena, LOGGING_ERROR, arena.allocateFrom("callbench"));
    }

    /**
     * A session over {@code model} with {@code threads} intra-op threads, no
     * inter-op parallelism (sequential execution) and all graph optimisations:
     * the options of the Java API's rows.
     */
    MemorySegment createSession(Arena arena, MemorySegment env, Path model, int threads)
            throws Failure {
        MemorySegment options = created(Function.CreateSessionOptions, arena);
        try {
            status(Function.SetIntraOpNumThreads, options, threads);
            status(Function.SetInterOpNumThreads, options, 1);
            status(Function.SetSessionExecutionMode, options, SEQUENTIAL);
            status(Function.SetSessionGraphOptimizationLevel, options, ENABLE_ALL);
            return created(Function.CreateSession, arena, env,
                    arena.allocateFrom(model.toString()), options);
        } finally {
            release(Function.ReleaseSessionOptions, options);
        }
    }

    /** A CPU memory description for tensors over our own memory. */
    MemorySegment cpuMemory(Arena arena) throws Failure {
        return created(Function.CreateCpuMemoryInfo, arena, ARENA_ALLOCATOR,
                MEM_TYPE_DEFAULT);
    }

    /** How many inputs ({@code outputs}: outputs) the session has. */
    long count(Arena arena, MemorySegment session, boolean outputs) throws Failure {
        MemorySegment out = arena.allocate(JAVA_LONG);
        status(outputs ? Function.SessionGetOutputCount : Function.SessionGetInputCount,
                session, out);
        return out.get(JAVA_LONG, 0);
    }

    /** Input (or output) {@code index}: its name, its element type (or not a tensor), its shape. */
    OnnxSignature.Port port(Arena arena, MemorySegment session, boolean output, long index)
            throws Failure {
        MemorySegment allocator = created(Function.GetAllocatorWithDefaultOptions, arena);
        MemorySegment chars = created(
                output ? Function.SessionGetOutputName : Function.SessionGetInputName,
                arena, session, index, allocator);
        String name = string(chars);
        status(Function.AllocatorFree, allocator, chars);
        MemorySegment typeInfo = created(
                output ? Function.SessionGetOutputTypeInfo : Function.SessionGetInputTypeInfo,
                arena, session, index);
        try {
            // Not a tensor (a sequence, a map): the cast gives NULL.
            MemorySegment tensor = created(Function.CastTypeInfoToTensorInfo, arena, typeInfo);
            if (tensor.equals(MemorySegment.NULL)) {
                return new OnnxSignature.Port(name, null, null, new long[0]);
            }
            return port(arena, name, tensor);
        } finally {
            release(Function.ReleaseTypeInfo, typeInfo);
        }
    }

    private int elementType(Arena arena, MemorySegment tensorInfo) throws Failure {
        MemorySegment out = arena.allocate(JAVA_INT);
        status(Function.GetTensorElementType, tensorInfo, out);
        return out.get(JAVA_INT, 0);
    }

    /** A tensor description's dimensions, -1 where symbolic. */
    private long[] shape(Arena arena, MemorySegment tensorInfo) throws Failure {
        MemorySegment count = arena.allocate(JAVA_LONG);
        status(Function.GetDimensionsCount, tensorInfo, count);
        long rank = count.get(JAVA_LONG, 0);
        MemorySegment dims = arena.allocate(JAVA_LONG, Math.max(rank, 1));
        status(Function.GetDimensions, tensorInfo, dims, rank);
        return dims.asSlice(0, rank * JAVA_LONG.byteSize()).toArray(JAVA_LONG);
    }

    /** A tensor value's element type and shape (a Run's output), as a port named {@code name}. */
    OnnxSignature.Port valuePort(Arena arena, String name, MemorySegment value) throws Failure {
        MemorySegment info = created(Function.GetTensorTypeAndShape, arena, value);
        try {
            return port(arena, name, info);
        } finally {
            release(Function.ReleaseTensorTypeAndShapeInfo, info);
        }
    }

    private OnnxSignature.Port port(Arena arena, String name, MemorySegment tensorInfo)
            throws Failure {
        int type = elementType(arena, tensorInfo);
        return new OnnxSignature.Port(name, OnnxSignature.dtypeOf(type), Integer.toString(type),
                shape(arena, tensorInfo));
    }

    /** A tensor value of ONNX element type {@code elementType} over {@code data}, which it does not own or copy. */
    MemorySegment tensor(Arena arena, MemorySegment memory, MemorySegment data, long[] shape,
            int elementType) throws Failure {
        return created(Function.CreateTensorWithDataAsOrtValue, arena, memory, data,
                data.byteSize(), arena.allocateFrom(JAVA_LONG, shape), (long) shape.length,
                elementType);
    }

    /**
     * {@code OrtApi::Run} with {@code inputCount} inputs and {@code outputCount}
     * outputs: {@code outputs} holds an OrtValue pointer for each, a preallocated
     * value that Run writes into, or NULL for Run to make one. The timed call: an
     * exact invocation, no boxing.
     */
    void run(MemorySegment session, MemorySegment inputNames, MemorySegment inputs,
            long inputCount, MemorySegment outputNames, long outputCount, MemorySegment outputs)
            throws Failure {
        MemorySegment status;
        try {
            status = (MemorySegment) run.invokeExact(session, MemorySegment.NULL, inputNames,
                    inputs, inputCount, outputNames, outputCount, outputs);
        } catch (Throwable e) {
            throw new IllegalStateException("Run failed", e);
        }
        check("Run", status);
    }

    void releaseEnv(MemorySegment env) {
        release(Function.ReleaseEnv, env);
    }

    void releaseSession(MemorySegment session) {
        release(Function.ReleaseSession, session);
    }

    void releaseValue(MemorySegment value) {
        release(Function.ReleaseValue, value);
    }

    void releaseMemoryInfo(MemorySegment memory) {
        release(Function.ReleaseMemoryInfo, memory);
    }
}
