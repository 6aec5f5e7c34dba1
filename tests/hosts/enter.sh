#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a command on a test host (hosts.sh), as ssh runs one on a cluster's node: the command's
# words are joined and read by a shell there, in the host's network, UTS and mount namespaces
# and in the caller's working directory. It is what mpirun's launch agent is set to
# (--mca plm_rsh_agent), where a cluster would use ssh.
#   enter.sh [--dir DIR] HOST COMMAND [ARGS]    DIR defaults to $SYMM_HOSTS_DIR
set -eu
dir=${SYMM_HOSTS_DIR:-}
if [ "${1:-}" = --dir ]; then
    dir=$2
    shift 2
fi
[ -n "$dir" ] && [ -f "$dir/names" ] || { echo "enter.sh: no test hosts (SYMM_HOSTS_DIR)" >&2; exit 255; }
host=$1
shift
# The process that holds the host's namespaces.
pid=$(awk -v h="$host" '$1 == h {print $3}' "$dir/names")
[ -n "$pid" ] || { echo "enter.sh: no host '$host' in $dir" >&2; exit 255; }
exec nsenter -t "$pid" --net --uts --mount --wd="$PWD" -- sh -c "$*"
