# SPDX-License-Identifier: BSD-3-Clause
# Debian packages, made by `cpack -G DEB` in a build folder (scripts/package.sh configures one
# for the prefix /usr and runs it), one per install component:
#   libsymm      libsymm.so.0 (the runtime; its dependencies from dpkg-shlibdeps: PMIx where
#                the library was built with it; CUDA and UCX are loaded at run time)
#   libsymm-dev  the headers, libsymm.so and libsymm.a, symmcc, symmrun, symminfo, symm.pc and
#                the CMake package; it depends on libsymm of the same version, a C compiler, and
#                PMIx's headers where libsymm.a needs them
#   libsymm-mpi  libsymm_mpi.so, the plugin for programs that hand symm an MPI communicator,
#                where the build has it (it depends on the MPI it was built against)
# The packages install under the prefix the build was configured with (symmcc and symm.pc
# carry it).
set(CPACK_PACKAGE_NAME symm)
set(CPACK_PACKAGE_VENDOR "The symm authors")
set(CPACK_PACKAGE_CONTACT "The symm authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
if(SYMM_HAVE_MPI)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# symminfo (libsymm-dev) needs libsymm.so.0 of libsymm, not yet installed where the packages
# are made.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_CURRENT_BINARY_DIR})
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libsymm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "symmetric memory for CPU and GPU processes: the library
A PGAS communication library: OpenSHMEM 1.5 on CPU PEs, GPU PEs with a device API,
NVSHMEM's names. This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libsymm-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(symm_dev_depends "gcc | c-compiler")
if(SYMM_HAVE_PMIX_01)
  string(APPEND symm_dev_depends ", libpmix-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${symm_dev_depends}")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "pkg-config")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake")
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_DEBIAN_DEV_DESCRIPTION "symmetric memory for CPU and GPU processes: development files
The headers (shmem.h, shmemx.h, nvshmem.h, the device API), the static library, the
compiler wrapper symmcc, the launcher symmrun, symminfo, pkg-config's symm.pc and the
CMake package (find_package(symm)).")

set(CPACK_DEBIAN_MPI_PACKAGE_NAME libsymm-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_MPI_DEPENDS runtime)
set(CPACK_DEBIAN_MPI_DESCRIPTION "symmetric memory for CPU and GPU processes: MPI plugin
libsymm_mpi.so, loaded by programs that hand symm an MPI communicator
(SHMEMX_INIT_WITH_MPI_COMM).")

include(CPack)
