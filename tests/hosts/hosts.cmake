# SPDX-License-Identifier: BSD-3-Clause
# Test hosts (tests/hosts/hosts.sh): each host a network namespace with its own interface,
# address and hostname; jobs started across them by Open MPI's mpirun through its own remote
# launch (job.sh), UCX on TCP over the hosts' interfaces. A run is <hosts>x<PEs a host>|<programs>
# as in the virtual-node runs; every program of those runs runs at 2 hosts of 2 PEs. Where test
# hosts cannot be made (no root, no namespaces) the tests are skipped with hosts.sh's line.
set(SYMM_HOSTS_JOB ${CMAKE_CURRENT_SOURCE_DIR}/hosts/job.sh)
set(SYMM_HOST_RUNS
  "2x2|${NODE_API},${NODE_SYNC},${NODE_COLL}"
  "3x1|${NODE_SM3}"
  "4x2|${NODE_SHAPES},api_rma_prog,sync_wait"
  "2x3|${NODE_SHAPES},coll_typed_prog:split,coll_typed_prog:2d,coll_reduce_prog:split,coll_teams_prog:cycles")
foreach(run IN LISTS SYMM_HOST_RUNS)
  string(REPLACE "|" ";" parts "${run}")
  list(GET parts 0 shape)
  list(GET parts 1 progs)
  string(REGEX REPLACE "x.*" "" nhosts "${shape}")
  string(REGEX REPLACE ".*x" "" ppn "${shape}")
  math(EXPR np "${nhosts} * ${ppn}")
  string(REPLACE "," ";" progs "${progs}")
  foreach(entry IN LISTS progs)
    string(REPLACE "@N@" "${np}" entry "${entry}")
    string(REPLACE ":" ";" e "${entry}")
    list(GET e 0 prog)
    list(LENGTH e ne)
    set(arg "")
    set(suffix "")
    if(ne GREATER 1)
      list(GET e 1 arg)
      set(suffix "_${arg}")
    endif()
    string(REGEX REPLACE "_prog$" "" base "${prog}")
    set(name hosts_${base}${suffix}_${shape})
    add_test(NAME ${name}
      COMMAND ${SYMM_HOSTS_JOB} ${shape} -t ${SYMM_TEST_TIMEOUT} $<TARGET_FILE:${prog}> ${arg})
    symm_test_cpus(${name} ${np})
    set_tests_properties(${name} PROPERTIES LABELS "hosts;pmix;nodes" SKIP_RETURN_CODE 77
      FAIL_REGULAR_EXPRESSION "UCX +ERROR")
  endforeach()
endforeach()
