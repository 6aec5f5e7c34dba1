#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# SYMM_NET=auto with both networks built, on a host with no Slingshot, EFA or Omni-Path device:
# libfabric where FI_PROVIDER names a provider, UCX where FI_PROVIDER is unset or set empty, as
# the network line of SHMEM_INFO=1 says; each job of 2 PEs in 2 virtual nodes ends well.
#   auto_net.sh SYMMRUN PROG [ARGS...]
set -u
symmrun=$1
shift
fail=0
# want|how FI_PROVIDER is set (env's arguments)
for case in 'ofi|FI_PROVIDER=tcp;ofi_rxm' 'ucx|-u FI_PROVIDER' 'ucx|FI_PROVIDER='; do
    want=${case%%|*}
    fi=${case#*|}
    # shellcheck disable=SC2086 # fi is one or two arguments of env
    out=$(timeout -k 5 60 env $fi SYMM_NET=auto SHMEM_INFO=1 UCX_TLS=${UCX_TLS:-tcp,self} \
        "$symmrun" -n 2 --nodes 2 --timeout 50 "$@" 2>&1)
    status=$?
    got=$(printf '%s\n' "$out" | sed -n 's/^ *network: \([a-z]*\).*/\1/p' | head -n 1)
    if [ "$status" -ne 0 ] || [ "$got" != "$want" ]; then
        echo "FAIL: env $fi SYMM_NET=auto: network '${got}' (want $want), status $status:"
        printf '%s\n' "$out"
        fail=1
    else
        echo "ok: env $fi SYMM_NET=auto: network $got"
    fi
done
exit $fail
