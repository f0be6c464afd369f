# ExecuTorch's C++ SDK from the executorch wheel, as the imported target callbench::executorch.
#
# The wheel ships include/, lib/libexecutorch.so (the runtime, with the
# extension::Module and data-loader code), the kernel and backend libraries
# (libexecutorch_kernels_optimized, libexecutorch_backend_xnnpack, ...) and
# share/cmake/executorch-config.cmake. That config defines its imported
# targets only on CMake >= 3.28 (older versions mis-write the $ORIGIN token of
# their link options); below that it still sets EXECUTORCH_LIBRARIES (every
# shipped component, kept with --no-as-needed because the kernels and
# backends register themselves from static initialisers),
# EXECUTORCH_INCLUDE_DIRS and EXECUTORCH_COMPILE_DEFINITIONS. Those variables
# work on both, so they are what we use: Debian 12 has CMake 3.25.
#
# Inputs: CALLBENCH_DEPS/site-packages (scripts/build_cpp.py). Sets
# CALLBENCH_HAVE_EXECUTORCH, CALLBENCH_EXECUTORCH_LIBDIR (for RPATH),
# CALLBENCH_EXECUTORCH_VERSION (the wheel's, e.g. 1.5.1+cpu) and, when
# OFF, CALLBENCH_EXECUTORCH_MISSING (why).
# A missing wheel is not an error: the cpp-executorch drivers are then not
# built, and the registry reports them as skipped.

set(_et_root "${CALLBENCH_DEPS}/site-packages/executorch")
set(CALLBENCH_HAVE_EXECUTORCH OFF)
if(EXISTS "${_et_root}/share/cmake/executorch-config.cmake")
  find_package(executorch CONFIG QUIET PATHS "${_et_root}/share/cmake" NO_DEFAULT_PATH)
endif()
if(executorch_FOUND AND EXECUTORCH_LIBRARIES)
  set(CALLBENCH_HAVE_EXECUTORCH ON)
  set(CALLBENCH_EXECUTORCH_LIBDIR "${_et_root}/lib")
  set(CALLBENCH_EXECUTORCH_VERSION "${EXECUTORCH_BUILD_VERSION}")
  add_library(callbench_executorch INTERFACE)
  add_library(callbench::executorch ALIAS callbench_executorch)
  target_include_directories(callbench_executorch SYSTEM INTERFACE ${EXECUTORCH_INCLUDE_DIRS})
  target_compile_definitions(callbench_executorch INTERFACE ${EXECUTORCH_COMPILE_DEFINITIONS})
  target_link_libraries(callbench_executorch INTERFACE ${EXECUTORCH_LIBRARIES})
  message(STATUS "ExecuTorch ${EXECUTORCH_BUILD_VERSION} from ${_et_root}")
else()
  set(CALLBENCH_EXECUTORCH_MISSING
      "no ExecuTorch C++ SDK in the executorch wheel of the build's Python (pip install executorch): cpp-executorch drivers not built")
  message(WARNING "${CALLBENCH_EXECUTORCH_MISSING}")
endif()
