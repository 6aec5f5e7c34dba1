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
    symm_node_entry("${entry}" ${np})
    set(name hosts_${base}${suffix}_${shape})
    add_test(NAME ${name}
      COMMAND ${SYMM_HOSTS_JOB} ${shape} -t ${SYMM_TEST_TIMEOUT} $<TARGET_FILE:${prog}> ${arg})
    symm_test_cpus(${name} ${np})
    set_tests_properties(${name} PROPERTIES LABELS "hosts;pmix;nodes" SKIP_RETURN_CODE 77
      FAIL_REGULAR_EXPRESSION "UCX +ERROR")
  endforeach()
endforeach()

# ---- Network faults --------------------------------------------------------------------------
add_executable(hosts_stream hosts/stream.c)
target_link_libraries(hosts_stream PRIVATE symm)
target_compile_options(hosts_stream PRIVATE -Wall -Wextra)

# A host's link cut under a job streaming puts and gets with checks, every process of a host
# killed, a link down for 1 s, a PE stopped under mpirun's timeout (tests/hosts/fault.sh). The
# bounds here leave room for a loaded machine; the figures themselves (5 s and 3 s, medians of
# runs) are measured by bench/faults.sh. Each runs alone: its timing is part of what it checks.
set(SYMM_FAULTS "link|2x2|10" "link|3x1|10" "kill|2x2|6" "flap|2x2|40" "stop|2x2|8")
foreach(f IN LISTS SYMM_FAULTS)
  string(REPLACE "|" ";" f "${f}")
  list(GET f 0 mode)
  list(GET f 1 shape)
  list(GET f 2 bound)
  string(REGEX REPLACE ".*x" "" ppn "${shape}")
  set(rounds 1000000)
  if(mode STREQUAL "flap")
    set(rounds 1500)
  endif()
  set(name hosts_fault_${mode}_${shape})
  add_test(NAME ${name}
    COMMAND timeout -k 5 150 ${CMAKE_CURRENT_SOURCE_DIR}/hosts/fault.sh ${mode} ${shape} ${bound}
            $<TARGET_FILE:hosts_stream> ${ppn} ${rounds})
  set_tests_properties(${name} PROPERTIES LABELS "hosts;pmix;nodes;faults" SKIP_RETURN_CODE 77
    RUN_SERIAL TRUE TIMEOUT 160)
endforeach()

# The unique-id start across hosts: processes started on each host as torchrun starts them,
# the id passed through a file the hosts share.
foreach(shape 2x2 3x1)
  add_test(NAME hosts_uid_${shape}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hosts/uid.sh ${shape} $<TARGET_FILE:uid_start>)
  symm_test_cpus(hosts_uid_${shape} 2)
  set_tests_properties(hosts_uid_${shape} PROPERTIES LABELS "hosts;nodes" SKIP_RETURN_CODE 77)
endforeach()

# The test hosts themselves: made, reachable, named, and removed with all on them.
add_test(NAME hosts_script COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hosts/check.sh)
set_tests_properties(hosts_script PROPERTIES LABELS hosts SKIP_RETURN_CODE 77)
