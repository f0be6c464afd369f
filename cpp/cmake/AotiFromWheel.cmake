# AOTInductor's C++ runtime from the torch wheel, as the imported target callbench::aoti.
#
# The loader, torch::inductor::AOTIModelPackageLoader (header
# torch/csrc/inductor/aoti_package/model_package_loader.h), is compiled into
# libtorch_cpu, which callbench::torch already links. What it loads is another
# matter: at load time it unpacks mlp.pt2 into a temporary folder and
# dlopen()s the model's shared library, which the exporter's g++ linked with
# -ltorch -ltorch_cpu but gave no search path. The dynamic loader can only
# satisfy its NEEDED libtorch.so if the process already has that library, so
# the AOTInductor drivers link libtorch.so themselves, kept with --no-as-needed
# (they call nothing in it), and carry the wheel's lib folder as RPATH. In the
# CUDA build of the wheel libtorch.so pulls in libtorch_cuda and the nvidia pip
# libraries: loaded at start-up, never used. No CUDA toolkit is needed to build.
#
# Needs TorchFromWheel.cmake first (CALLBENCH_TORCH_LIBDIR, callbench::torch).
# Sets CALLBENCH_HAVE_AOTI, and CALLBENCH_AOTI_MISSING (why not) when OFF.

set(_aoti_header
    "${CALLBENCH_DEPS}/site-packages/torch/include/torch/csrc/inductor/aoti_package/model_package_loader.h")
if(EXISTS "${_aoti_header}" AND EXISTS "${CALLBENCH_TORCH_LIBDIR}/libtorch.so")
  set(CALLBENCH_HAVE_AOTI ON)
  add_library(callbench_aoti INTERFACE)
  add_library(callbench::aoti ALIAS callbench_aoti)
  target_link_libraries(callbench_aoti INTERFACE
    callbench::torch
    "-Wl,--no-as-needed"
    "${CALLBENCH_TORCH_LIBDIR}/libtorch.so"
    "-Wl,--as-needed")
else()
  set(CALLBENCH_HAVE_AOTI OFF)
  set(CALLBENCH_AOTI_MISSING
      "the torch wheel has no AOTInductor package loader or no libtorch.so: cpp-aoti drivers not built")
  message(WARNING "${CALLBENCH_AOTI_MISSING}")
endif()
