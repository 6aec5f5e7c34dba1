# SPDX-License-Identifier: BSD-3-Clause
# The tests of the Python interface (python/symm, docs/python.md), where a python3 with NumPy
# and pytest is found: the pytest suite of tests/python run inside every PE of one job, at each
# PE count of the matrix and across 2 virtual nodes; in jobs started by mpirun (shmem_init, and
# an mpi4py communicator where mpi4py is installed), by a launcher of its own through a unique
# id, and alone; a fault only the C library can see, ending the job with its line; and the
# ring example. Label: python. The GPU runs (torch and CuPy on GPU PEs, torchrun) are
# tests/python/gpu.sh, which tests/gpu/run.sh calls.

set(PY_NPES 1 2 3 4)
set(PY_TIMEOUT 100)
set(PY_DIR ${CMAKE_CURRENT_LIST_DIR})

if(NOT SYMM_PYTHON)
  find_program(SYMM_PYTHON NAMES python3)
endif()
set(PY_OK FALSE)
if(SYMM_PYTHON)
  execute_process(COMMAND ${SYMM_PYTHON} -c "import numpy, pytest" RESULT_VARIABLE py_rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(py_rc EQUAL 0)
    set(PY_OK TRUE)
  endif()
endif()
if(NOT PY_OK)
  message(STATUS "No python3 with NumPy and pytest: the tests of tests/python are left out")
  return()
endif()

# The package from the source tree, the library from this build, no bytecode or pytest cache
# written into the source tree.
set(PY_ENV "PYTHONPATH=${PROJECT_SOURCE_DIR}/python" "SYMM_LIB=$<TARGET_FILE:symm>"
  PYTHONDONTWRITEBYTECODE=1)
set(PY_PYTEST ${SYMM_PYTHON} -m pytest -q -p no:cacheprovider ${PY_DIR})

# py_test(<name> <np> <env> <command>...): one job, its environment, the label.
function(py_test name np env)
  add_test(NAME ${name} COMMAND ${ARGN})
  symm_test_cpus(${name} ${np})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${PY_ENV};${env}" LABELS python)
endfunction()

# NumPy arrays at every PE count, torch CPU tensors too at 1 and 2 PEs where torch is
# installed (the suite's time at 3 and 4 PEs on 2 CPUs is mostly torch's import).
foreach(np IN LISTS PY_NPES)
  if(np GREATER 2)
    set(kinds "SYMM_PY_KINDS=numpy")
  else()
    set(kinds "")
  endif()
  py_test(python_np${np} ${np} "${kinds}" ${SYMMRUN} -n ${np} --timeout ${PY_TIMEOUT} ${PY_PYTEST})
endforeach()
# A plain script: a job of one PE, no launcher.
py_test(python_alone 1 "SYMM_PY_KINDS=numpy" ${PY_PYTEST})

# Across virtual nodes (the ucx transport): every call reaches the other node's PEs.
find_library(SYMM_TEST_LIBUCP NAMES ucp)
if(SYMM_HAVE_UCX_01 AND SYMM_TEST_LIBUCP)
  py_test(nodes_python_4n2_tcp 4 "UCX_TLS=tcp,self;SYMM_PY_KINDS=numpy"
    ${SYMMRUN} -n 4 --nodes 2 --timeout ${PY_TIMEOUT} ${PY_PYTEST})
  py_test(nodes_python_2n2_sm 2 "UCX_TLS=sm,self;SYMM_PY_KINDS=numpy"
    ${SYMMRUN} -n 2 --nodes 2 --timeout ${PY_TIMEOUT} ${PY_PYTEST})
  set_tests_properties(nodes_python_4n2_tcp nodes_python_2n2_sm PROPERTIES
    LABELS "python;nodes")
endif()

# Processes of another launcher, joined by a unique id (tests/boot/uid_run.sh allows 20 s:
# the quicker tests).
py_test(python_uid_np2 2 "SYMM_PY_INIT=uid;SYMM_PY_KINDS=numpy"
  ${PROJECT_SOURCE_DIR}/tests/boot/uid_run.sh 2 ${PY_PYTEST} -k "start or rma or amo")

# Started by mpirun: shmem_init (the pmix bootstrap), and an mpi4py communicator (the mpi
# bootstrap, libsymm_mpi.so) where mpi4py is installed.
if(SYMM_HAVE_PMIX_01 AND SYMM_MPIRUN)
  py_test(pmix_python_np2 2 "SYMM_PY_KINDS=numpy;${SYMM_MPIRUN_ENV}"
    ${SYMM_MPIRUN_CMD} -np 2 ${PY_PYTEST})
  set_tests_properties(pmix_python_np2 PROPERTIES LABELS "python;pmix")
  execute_process(COMMAND ${SYMM_PYTHON} -c "import mpi4py" RESULT_VARIABLE py_rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(py_rc EQUAL 0 AND TARGET symm_mpi)
    py_test(pmix_python_mpi4py_np3 3
      "SYMM_PY_INIT=mpi4py;SYMM_PY_KINDS=numpy;${SYMM_MPIRUN_ENV}"
      ${SYMM_MPIRUN_CMD} -np 3 ${PY_PYTEST})
    set_tests_properties(pmix_python_mpi4py_np3 PROPERTIES LABELS "python;pmix")
  endif()
endif()

# What Python cannot check from one PE ends the job with the C library's line.
set(PY_MISMATCH "shmem_malloc: collective allocation #[0-9]+ differs across PEs")
add_test(NAME python_fatal_malloc_np2
  COMMAND ${EXPECT_FAIL} --regex "${FATAL}${PY_MISMATCH}"
          --reject "${NOT_TIMEOUT}" --reject "the allocation returned"
          -- ${SYMMRUN} -n 2 --timeout 60 ${SYMM_PYTHON} ${PY_DIR}/fatal.py)
symm_test_cpus(python_fatal_malloc_np2 2)
set_tests_properties(python_fatal_malloc_np2 PROPERTIES ENVIRONMENT "${PY_ENV};SHMEM_DEBUG=1"
  LABELS python)

# The examples (examples/python): the ring of puts with signals; the allreduce and alltoall on
# torch tensors where torch is installed (CPU tensors on this machine).
py_test(python_example_ring_np3 3 "" ${SYMMRUN} -n 3 --timeout 60 ${SYMM_PYTHON}
  ${PROJECT_SOURCE_DIR}/examples/python/ring.py)
set_tests_properties(python_example_ring_np3 PROPERTIES PASS_REGULAR_EXPRESSION
  "ring: pe 2 of 3: block of pe 2 holds 5, ok" FAIL_REGULAR_EXPRESSION "WRONG")
execute_process(COMMAND ${SYMM_PYTHON} -c "import torch" RESULT_VARIABLE py_rc OUTPUT_QUIET
                ERROR_QUIET)
if(py_rc EQUAL 0)
  py_test(python_example_torch_np2 2 "" ${SYMMRUN} -n 2 --timeout 90 ${SYMM_PYTHON}
    ${PROJECT_SOURCE_DIR}/examples/python/torch_collectives.py --device cpu)
  set_tests_properties(python_example_torch_np2 PROPERTIES PASS_REGULAR_EXPRESSION
    "torch_collectives: 2 PEs ok" FAIL_REGULAR_EXPRESSION "WRONG")
endif()
