# The drivers of PyTorch's deployment paths: AOTInductor (cpp_aoti*.cpp) and
# ExecuTorch (cpp_executorch*.cpp). drivers/CMakeLists.txt hands each such
# source to callbench_add_deploy_driver instead of its generic loop.
#
#   cpp-aoti-cuda    -> as cpp-aoti*, with CALLBENCH_CUDA only (mlp_cuda.pt2 needs a device)
#   cpp-aoti*        -> callbench::aoti (LibTorch + libtorch.so for the model's
#                       .so), support/aoti_support and torch_support; RPATH the
#                       torch lib folder
#   cpp-executorch*  -> callbench::executorch and support/executorch_support;
#                       RPATH the executorch wheel's lib folder
#
# A driver whose runtime was not found is not built: no stale binary is left,
# and bin/<id>.skipped says why (as for the OpenVINO drivers).

# callbench_add_deploy_driver(<id> <source> <support-dir>)
function(callbench_add_deploy_driver id source support_dir)
  set(skipped "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${id}.skipped")
  if(id STREQUAL "cpp-aoti-cuda" AND NOT CALLBENCH_CUDA)
    file(REMOVE "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${id}")
    file(WRITE "${skipped}" "${CALLBENCH_CUDA_OFF}\n")
    return()
  endif()
  if(id MATCHES "^cpp-aoti")
    if(NOT CALLBENCH_HAVE_AOTI)
      file(REMOVE "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${id}")
      file(WRITE "${skipped}" "${CALLBENCH_AOTI_MISSING}\n")
      return()
    endif()
    if(NOT TARGET callbench_aoti_support)
      add_library(callbench_aoti_support STATIC "${support_dir}/aoti_support.cpp")
      target_include_directories(callbench_aoti_support PUBLIC "${support_dir}")
      target_link_libraries(callbench_aoti_support PUBLIC callbench_torch_support callbench::aoti)
      target_compile_options(callbench_aoti_support PRIVATE ${CALLBENCH_WARNINGS})
    endif()
    set(libraries callbench_aoti_support)
    set(rpath "${CALLBENCH_TORCH_LIBDIR}")
  elseif(id MATCHES "^cpp-executorch")
    if(NOT CALLBENCH_HAVE_EXECUTORCH)
      file(REMOVE "${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${id}")
      file(WRITE "${skipped}" "${CALLBENCH_EXECUTORCH_MISSING}\n")
      return()
    endif()
    if(NOT TARGET callbench_executorch_support)
      add_library(callbench_executorch_support STATIC "${support_dir}/executorch_support.cpp")
      target_include_directories(callbench_executorch_support PUBLIC "${support_dir}")
      target_link_libraries(callbench_executorch_support PUBLIC callbench_common callbench::executorch)
      target_compile_options(callbench_executorch_support PRIVATE ${CALLBENCH_WARNINGS})
      target_compile_definitions(callbench_executorch_support PRIVATE
        CALLBENCH_EXECUTORCH_VERSION="${CALLBENCH_EXECUTORCH_VERSION}")
    endif()
    set(libraries callbench_executorch_support)
    set(rpath "${CALLBENCH_EXECUTORCH_LIBDIR}")
  else()
    message(FATAL_ERROR "callbench_add_deploy_driver: ${id} is neither an AOTInductor nor an ExecuTorch driver")
  endif()
  file(REMOVE "${skipped}")
  add_executable(${id} "${source}")
  target_include_directories(${id} PRIVATE "${support_dir}")
  target_link_libraries(${id} PRIVATE callbench_common ${libraries})
  target_compile_options(${id} PRIVATE ${CALLBENCH_WARNINGS})
  set_target_properties(${id} PROPERTIES BUILD_RPATH "${rpath}")
endfunction()
