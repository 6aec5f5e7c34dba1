# SPDX-License-Identifier: BSD-3-Clause
# The packages as users install them (label package): the Python wheel that pip builds through
# CMake, installed into a fresh virtual environment and run there (tests/package/wheel.sh, the
# GPU part in it as this build has it); and the Debian packages of scripts/package.sh, installed
# into the system with apt-get, used and removed again (tests/package/deb.sh: as root with apt
# only, and alone, since while they are installed the system holds symm's headers and library).
if(NOT SYMM_PYTHON)
  find_program(SYMM_PYTHON NAMES python3)
endif()
if(SYMM_HAVE_CUDA)
  set(package_cuda ON)
else()
  set(package_cuda OFF)
endif()
if(SYMM_PYTHON)
  add_test(NAME package_wheel
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/wheel.sh ${SYMM_PYTHON} ${PROJECT_SOURCE_DIR}
            ${package_cuda} -DSYMM_CUDA=${package_cuda})
  set_tests_properties(package_wheel PROPERTIES TIMEOUT 1800 PROCESSORS 2 SKIP_RETURN_CODE 77
    LABELS package)
endif()
add_test(NAME package_deb
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/deb.sh ${PROJECT_SOURCE_DIR} -DSYMM_CUDA=OFF)
set_tests_properties(package_deb PROPERTIES TIMEOUT 1800 RUN_SERIAL TRUE SKIP_RETURN_CODE 77
  LABELS package)
