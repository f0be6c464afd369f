# LibTorch from the torch wheel, as the imported target callbench::torch.
#
# Why not find_package(Torch)? The wheel's TorchConfig.cmake pulls in
# Caffe2Config.cmake, which for a CUDA build of the wheel (torch+cu1xx) runs
# find_package(CUDAToolkit) and fails on a machine without a CUDA toolkit.
# We only run on the CPU, so we use the wheel's headers and link its CPU
# libraries directly: torch_cpu (every ATen/JIT operator, the nn API) and c10
# (core types). libtorch.so is left out on purpose: in the CUDA wheel it is an
# umbrella whose only job is to pull in libtorch_cuda (and cuDNN, NCCL, ...),
# which would only slow down start-up of a CPU benchmark. The CUDA runtime
# libraries that libtorch_cpu itself needs at load time are found through the
# wheel's own RPATH ($ORIGIN/../../nvidia/...), so nothing CUDA is needed to
# build. This works the same with the CPU-only wheel.
#
# Inputs: CALLBENCH_DEPS/site-packages (symlink to the running Python's
# site-packages) and CALLBENCH_TORCH_CXX11_ABI (torch.compiled_with_cxx11_abi()).

set(CALLBENCH_TORCH_CXX11_ABI 1 CACHE STRING "torch.compiled_with_cxx11_abi() of the wheel (0 or 1)")

set(_torch_root "${CALLBENCH_DEPS}/site-packages/torch")
set(CALLBENCH_TORCH_LIBDIR "${_torch_root}/lib")
foreach(_lib torch_cpu c10)
  if(NOT EXISTS "${CALLBENCH_TORCH_LIBDIR}/lib${_lib}.so")
    message(FATAL_ERROR "lib${_lib}.so not found in ${CALLBENCH_TORCH_LIBDIR}: is torch installed in this Python?")
  endif()
endforeach()

add_library(callbench_torch INTERFACE)
add_library(callbench::torch ALIAS callbench_torch)
target_include_directories(callbench_torch SYSTEM INTERFACE
  "${_torch_root}/include"
  "${_torch_root}/include/torch/csrc/api/include")
# The same ABI as the wheel's libraries, or std::string symbols do not match.
target_compile_definitions(callbench_torch INTERFACE
  _GLIBCXX_USE_CXX11_ABI=${CALLBENCH_TORCH_CXX11_ABI})
# --no-as-needed keeps libtorch_cpu linked even though we reference few of its
# symbols directly: its static initialisers register the CPU operators.
target_link_libraries(callbench_torch INTERFACE
  "-Wl,--no-as-needed"
  "${CALLBENCH_TORCH_LIBDIR}/libtorch_cpu.so"
  "${CALLBENCH_TORCH_LIBDIR}/libc10.so"
  "-Wl,--as-needed")
