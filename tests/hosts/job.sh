#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs a program as a job over test hosts, as on a cluster: makes H hosts (hosts.sh), and on
# the first one runs Open MPI's mpirun, which starts P PEs on each host through its own remote
# launch with enter.sh as the launch agent (where a cluster uses ssh), UCX on TCP over the
# hosts' interfaces (symm0). The hosts are removed on any exit.
#   job.sh HxP [-t SECONDS] [--mpirun-timeout SECONDS] [-x VAR=VALUE ...] PROGRAM [ARGS]
# Exits with mpirun's status, 124 when the job outlives SECONDS (default 120), 77 where test
# hosts cannot be made here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shape=$1
shift
[[ "$shape" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "job.sh: shape HxP, not '$shape'" >&2; exit 2; }
hosts=${BASH_REMATCH[1]} ppn=${BASH_REMATCH[2]}
limit=120
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    -t) limit=$2; shift 2 ;;
    --mpirun-timeout) extra+=(--timeout "$2"); shift 2 ;;
    -x) extra+=(-x "$2"); shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "job.sh: no program" >&2; exit 2; }
prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift

if [ -z "${SYMM_HOSTS_DIR:-}" ]; then
    exec "$here/hosts.sh" run "$hosts" -- "$0" "$shape" -t "$limit" "${extra[@]}" "$prog" "$@"
fi
read -r -a names <<<"$SYMM_HOSTS"
list=""
for h in "${names[@]}"; do list+="${list:+,}$h:$ppn"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec timeout -k 5 "$limit" "$here/enter.sh" "${names[0]}" \
    mpirun --mca plm_rsh_agent "$here/enter.sh" -x SYMM_HOSTS_DIR \
    -H "$list" -np $((hosts * ppn)) --bind-to none \
    -x SYMM_TEST_HOSTS=$hosts -x UCX_TLS=tcp,self -x UCX_NET_DEVICES=symm0 "${extra[@]}" "$prog" "$@"
