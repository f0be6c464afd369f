# NVRTC and the CUDA driver API's header from the torch wheel's nvidia packages, as
# callbench::cuda.
#
# The CUDA drivers' host code is plain C++ (g++) on the driver API, whose header (cuda.h)
# stands alone; libcuda.so comes with the NVIDIA driver, so it is loaded at run time
# (dlopen, then cuGetProcAddress), not linked. Their kernels are compiled at load by NVRTC
# from python/callbench/drivers/mlp_forward.cu, the file python-cupy-kernel compiles. So no
# CUDA toolkit is needed to build them; running them needs a GPU and its driver. (The
# wheel's runtime API header does not stand alone: it wants the toolkit's crt/ folder.)
# Layouts: nvidia/cu13 (CUDA 13's one package) or nvidia/cuda_nvrtc (CUDA 12's), else a
# CUDA toolkit's (CUDA_HOME, /usr/local/cuda) on a GPU host whose wheel lacks them. Sets
# CALLBENCH_HAVE_CUDA, CALLBENCH_CUDA_LIBDIR, and CALLBENCH_CUDA_MISSING (why not).

set(_nv "${CALLBENCH_DEPS}/site-packages/nvidia")
set(_toolkit "$ENV{CUDA_HOME}" "/usr/local/cuda")
list(TRANSFORM _toolkit APPEND "/include" OUTPUT_VARIABLE _toolkit_include)
list(TRANSFORM _toolkit APPEND "/lib64" OUTPUT_VARIABLE _toolkit_lib)
find_path(CALLBENCH_CUDA_INCLUDE cuda.h NO_DEFAULT_PATH
  PATHS "${_nv}/cu13/include" "${_nv}/cuda_runtime/include" ${_toolkit_include})
find_path(CALLBENCH_NVRTC_INCLUDE nvrtc.h NO_DEFAULT_PATH
  PATHS "${_nv}/cu13/include" "${_nv}/cuda_nvrtc/include" ${_toolkit_include})
find_library(CALLBENCH_NVRTC NAMES libnvrtc.so.13 libnvrtc.so.12 nvrtc NO_DEFAULT_PATH
  PATHS "${_nv}/cu13/lib" "${_nv}/cuda_nvrtc/lib" ${_toolkit_lib})

set(CALLBENCH_HAVE_CUDA OFF)
if(CALLBENCH_CUDA_INCLUDE AND CALLBENCH_NVRTC_INCLUDE AND CALLBENCH_NVRTC)
  set(CALLBENCH_HAVE_CUDA ON)
  add_library(callbench_cuda INTERFACE)
  add_library(callbench::cuda ALIAS callbench_cuda)
  target_include_directories(callbench_cuda SYSTEM INTERFACE
    "${CALLBENCH_CUDA_INCLUDE}" "${CALLBENCH_NVRTC_INCLUDE}")
  target_link_libraries(callbench_cuda INTERFACE "${CALLBENCH_NVRTC}" ${CMAKE_DL_LIBS})
  get_filename_component(CALLBENCH_CUDA_LIBDIR "${CALLBENCH_NVRTC}" DIRECTORY)
  message(STATUS "CUDA drivers: cuda.h and NVRTC from ${CALLBENCH_CUDA_LIBDIR}/..")
else()
  set(CALLBENCH_CUDA_MISSING
      "the torch wheel here has no NVRTC and cuda.h (nvidia/cu13, or nvidia/cuda_runtime and nvidia/cuda_nvrtc): a CPU-only torch")
  message(STATUS "CUDA drivers skipped: ${CALLBENCH_CUDA_MISSING}")
endif()

# Our MLP's kernels, the source python-cupy-kernel compiles, embedded for NVRTC.
set(CALLBENCH_MLP_KERNEL_SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/../python/callbench/drivers/mlp_forward.cu")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CALLBENCH_MLP_KERNEL_SOURCE}")
