# OpenVINO from the openvino wheel, as the imported target openvino::runtime.
#
# The wheel ships the C++ SDK next to its Python package: headers in
# openvino/include, libopenvino.so.<version> and the CPU plugin in
# openvino/libs, and OpenVINOConfig.cmake in openvino/cmake. We ask that
# config file, through the CALLBENCH_DEPS/site-packages symlink so that the
# RPATH CMake gives the binaries stays the same whichever environment built.
#
# The wheel's openvino::runtime target carries _GLIBCXX_USE_CXX11_ABI=1; our
# code is built with the torch wheel's ABI, so a torch built with the old ABI
# rules OpenVINO out.
#
# Sets CALLBENCH_HAVE_OPENVINO; when OFF, CALLBENCH_OPENVINO_MISSING says why
# (drivers/CMakeLists.txt leaves it in bin/<id>.skipped for each driver not built).

set(_ov_dir "${CALLBENCH_DEPS}/site-packages/openvino/cmake")
set(CALLBENCH_HAVE_OPENVINO OFF)
set(CALLBENCH_OPENVINO_MISSING "")
if(NOT EXISTS "${_ov_dir}/OpenVINOConfig.cmake")
  set(CALLBENCH_OPENVINO_MISSING
      "the openvino wheel is not installed in the Python that built the C++ drivers (pip install openvino)")
elseif(NOT CALLBENCH_TORCH_CXX11_ABI)
  set(CALLBENCH_OPENVINO_MISSING
      "the torch wheel uses the pre-C++11 string ABI, the openvino wheel the C++11 one")
else()
  find_package(OpenVINO QUIET COMPONENTS Runtime PATHS "${_ov_dir}" NO_DEFAULT_PATH)
  if(OpenVINO_FOUND)
    set(CALLBENCH_HAVE_OPENVINO ON)
  else()
    set(CALLBENCH_OPENVINO_MISSING "find_package(OpenVINO COMPONENTS Runtime) failed in ${_ov_dir}")
  endif()
endif()
if(NOT CALLBENCH_HAVE_OPENVINO)
  message(WARNING "${CALLBENCH_OPENVINO_MISSING}: the cpp-openvino drivers are not built")
endif()
