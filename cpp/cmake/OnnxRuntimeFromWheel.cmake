# ONNX Runtime as the imported target callbench::onnxruntime.
#
# The library is the onnxruntime wheel's own libonnxruntime.so.<version>; the
# wheel ships no headers, so scripts/fetch_onnxruntime_headers.py fetches them
# from a package registry. scripts/build_cpp.py lays out CALLBENCH_DEPS/onnxruntime:
#   lib/libonnxruntime.so.1  -> the wheel's file (its SONAME, found at run time via RPATH)
#   lib/libonnxruntime.so    -> the same (what the linker looks for)
#   include/                 -> the cached headers
# Headers of an older release than the library are fine: the C API is versioned
# (OrtGetApiBase()->GetApi(ORT_API_VERSION)) and a newer library serves older
# API versions. Sets CALLBENCH_HAVE_ONNXRUNTIME.

set(_ort_root "${CALLBENCH_DEPS}/onnxruntime")
if(EXISTS "${_ort_root}/include/onnxruntime_cxx_api.h" AND EXISTS "${_ort_root}/lib/libonnxruntime.so.1")
  set(CALLBENCH_HAVE_ONNXRUNTIME ON)
  set(CALLBENCH_ORT_LIBDIR "${_ort_root}/lib")
  add_library(callbench_onnxruntime INTERFACE)
  add_library(callbench::onnxruntime ALIAS callbench_onnxruntime)
  target_include_directories(callbench_onnxruntime SYSTEM INTERFACE "${_ort_root}/include")
  target_link_libraries(callbench_onnxruntime INTERFACE "${_ort_root}/lib/libonnxruntime.so.1")
else()
  set(CALLBENCH_HAVE_ONNXRUNTIME OFF)
  message(WARNING "ONNX Runtime headers or library missing under ${_ort_root}: "
                  "the cpp-onnxruntime drivers are not built (see scripts/fetch_onnxruntime_headers.py)")
endif()
