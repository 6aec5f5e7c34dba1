/* SPDX-License-Identifier: BSD-3-Clause */
/* Another OpenSHMEM's shmem.h (Open MPI's include folder has one, and mpicc's flags name it),
 * first on the include path of nvshmem_plain.cu: symm's headers must not pick it up. */
#error "a shmem.h other than symm's was included"
