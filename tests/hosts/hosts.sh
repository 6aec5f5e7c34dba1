#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Test hosts: K hosts on this machine, each a Linux network namespace with an interface of its
# own (symm0, a veth pair whose other end is a port of a bridge in a switch namespace of the
# run), an address in a private range that exists only inside these namespaces, a hostname of
# its own (a UTS namespace), and a mount namespace in which /etc/hosts names every host of the
# run, /sys shows the host's own interfaces, and /tmp and /dev/shm are the host's own (nothing
# under them is shared between hosts).
# Nothing is added to the machine's own network namespace.
#
#   hosts.sh up K            make K hosts; prints the run's folder (SYMM_HOSTS_DIR)
#   hosts.sh down [DIR]      remove a run's hosts and every process on them
#   hosts.sh run K -- CMD    make K hosts, run CMD with SYMM_HOSTS_DIR and SYMM_HOSTS (the
#                            names, space-separated) set, remove everything on any exit
#   hosts.sh check           exit 0 where test hosts can be made here, else one line and 77
#   hosts.sh cut DIR H       take host H's link down at the switch ("up" again with uncut)
#   hosts.sh uncut DIR H
#   hosts.sh pids DIR [H]    the processes on host H (default: on every host)
#
# A run's names and addresses are its own: namespaces "symm-<id>-h<i>" and "symm-<id>-sw",
# hostnames "h<i>-<id>", addresses 10.<a>.<b>.<i>/24 from the id. A run whose owner died
# (killed before it could clean up) is removed by the next `up`. Needs root.
set -euo pipefail

ROOT=/run/symm-hosts
here=$(cd "$(dirname "$0")" && pwd)

die() {
    echo "hosts.sh: $*" >&2
    exit 1
}

check() {
    local ns="symm-check-$$"
    [ "$(id -u)" -eq 0 ] || { echo "hosts.sh: test hosts need root (network namespaces)"; return 77; }
    for t in ip nsenter unshare; do
        command -v "$t" >/dev/null || { echo "hosts.sh: test hosts need '$t'"; return 77; }
    done
    if ! ip netns add "$ns" 2>/dev/null; then
        echo "hosts.sh: network namespaces cannot be made here (ip netns add failed)"
        return 77
    fi
    if ! ip -n "$ns" link add c0 type veth peer name c1 2>/dev/null; then
        ip netns del "$ns"
        echo "hosts.sh: veth pairs cannot be made here"
        return 77
    fi
    ip netns del "$ns"
    if ! unshare --uts --mount true 2>/dev/null; then
        echo "hosts.sh: UTS and mount namespaces cannot be made here"
        return 77
    fi
}


down() {
    local dir=$1 id
    [ -f "$dir/id" ] || { rm -rf "$dir"; return 0; }
    id=$(cat "$dir/id")
    # Every process on any host of the run, then the namespaces.
    for ns in $(ip netns list | awk '{print $1}' | grep "^symm-$id-" || true); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    done
    for ns in $(ip netns list | awk '{print $1}' | grep "^symm-$id-" || true); do
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf "$dir"
}

# Runs whose owner is gone.
reap() {
    local owner
    for dir in "$ROOT"/*/; do
        [ -d "$dir" ] || continue
        dir=${dir%/}
        owner=$(cat "$dir/owner" 2>/dev/null || echo 0)
        if [ "$owner" = 0 ] || ! kill -0 "$owner" 2>/dev/null; then
            down "$dir"
        fi
    done
    # Namespaces of a run whose folder is gone.
    for ns in $(ip netns list | awk '{print $1}' | grep '^symm-[0-9a-f]*-' || true); do
        local id=${ns#symm-}
        id=${id%%-*}
        [ -d "$ROOT/$id" ] && continue
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
}

up() {
    local k=$1 owner=${2:-$PPID} id dir a b sw
    [[ "$k" =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le 250 ] || die "up: K must be 1 to 250, not '$k'"
    mkdir -p "$ROOT"
    reap
    id=$(printf '%05x' $(( (RANDOM << 5 ^ $$ ^ $(date +%N | sed 's/^0*//;s/^$/0/')) & 0xfffff )))
    dir=$ROOT/$id
    while [ -e "$dir" ]; do
        id=$(printf '%05x' $(( (0x$id + 1) & 0xfffff )))
        dir=$ROOT/$id
    done
    mkdir -p "$dir"
    echo "$id" >"$dir/id"
    echo "$owner" >"$dir/owner"
    a=$(( 16 + (0x$id >> 8) % 224 ))
    b=$(( 0x$id & 0xff ))
    echo "10.$a.$b.0/24" >"$dir/net"
    sw=symm-$id-sw
    ip netns add "$sw"
    ip -n "$sw" link add br0 mtu 65535 type bridge
    ip -n "$sw" link set br0 up
    ip -n "$sw" link set lo up
    {
        echo "127.0.0.1 localhost"
        for i in $(seq 1 "$k"); do
            echo "10.$a.$b.$i h$i-$id"
        done
    } >"$dir/hosts"
    : >"$dir/names"
    # A checkout or build under /tmp stays visible on every host, as a cluster's shared file
    # system would keep it (mpirun there runs the programs and the launch agent by that path);
    # the rest of each host's /tmp is its own.
    local root keep=""
    root=$(cd "$here/../.." && pwd)
    for p in "$root" "$PWD"; do
        case $p in
        "$root"/* | /tmp) ;;
        /tmp/*) case " $keep " in *" $p "*) ;; *) keep="$keep $p" ;; esac ;;
        esac
    done
    echo $keep >"$dir/shared"
    for i in $(seq 1 "$k"); do
        local ns=symm-$id-h$i name=h$i-$id
        ip netns add "$ns"
        # The loopback interface's MTU, so that the path between hosts is loopback's plus a
        # bridge.
        ip -n "$sw" link add "p$i" mtu 65535 type veth peer name symm0 mtu 65535 netns "$ns"
        ip -n "$sw" link set "p$i" master br0
        ip -n "$sw" link set "p$i" up
        ip -n "$ns" link set lo up
        ip -n "$ns" addr add "10.$a.$b.$i/24" dev symm0
        ip -n "$ns" link set symm0 up
        # TCP gives up on an unanswered peer after about 6 s instead of 15 minutes, as
        # clusters set it: Open MPI's mpirun and daemons wait that long for a lost host.
        nsenter --net="/run/netns/$ns" sysctl -qw net.ipv4.tcp_retries2=4
        # The host's hostname, hosts file, /tmp and /dev/shm, held by a process that lives in
        # the host's namespaces until the run is removed: entering the host is entering its
        # namespaces (enter.sh), from anywhere, even from another host.
        mkdir "$dir/$name.tmp"
        nsenter --net="/run/netns/$ns" unshare --uts --mount --propagation private sh -c "
            hostname $name && mount --bind $dir/hosts /etc/hosts && mount -t sysfs sysfs /sys &&
            mount --bind /tmp $dir/$name.tmp && mount -t tmpfs -o mode=1777 tmpfs /tmp &&
            for p in $keep; do
                mkdir -p \$p && mount --bind $dir/$name.tmp/\${p#/tmp/} \$p || exit 1
            done && umount $dir/$name.tmp &&
            mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
            touch $dir/$name.ready && exec sleep infinity" </dev/null >/dev/null 2>&1 &
        echo "$name $ns $!" >>"$dir/names"
    done
    for i in $(seq 1 "$k"); do
        for _ in $(seq 1 100); do
            [ -e "$dir/h$i-$id.ready" ] && break
            sleep 0.05
        done
        [ -e "$dir/h$i-$id.ready" ] || die "up: host h$i-$id did not start"
    done
    # Each host reaches every other before the run is handed out.
    for i in $(seq 1 "$k"); do
        local j=$(( i % k + 1 ))
        wait_reach "$dir" "h$i-$id" "10.$a.$b.$j" || die "up: host h$i-$id cannot reach 10.$a.$b.$j"
    done
    echo "$dir"
}

# Bounded: a TCP connect to a closed port answers at once (refused) once the path works.
wait_reach() {
    local dir=$1 host=$2 addr=$3
    for _ in $(seq 1 50); do
        if "$here/enter.sh" --dir "$dir" "$host" \
            "timeout 1 bash -c 'exec 3<>/dev/tcp/$addr/9' 2>&1 | grep -q refused"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

host_ns() {
    local dir=$1 h=$2
    awk -v h="$h" '$1 == h {print $2}' "$dir/names"
}

case "${1:-}" in
check)
    check
    ;;
up)
    [ $# -ge 2 ] || die "usage: hosts.sh up K"
    check >/dev/null || { check; exit 77; }
    up "$2" "$PPID"
    ;;
down)
    if [ $# -ge 2 ]; then
        down "$2"
    else
        for d in "$ROOT"/*/; do [ -d "$d" ] && down "${d%/}"; done
    fi
    ;;
run)
    [ $# -ge 4 ] && [ "$3" = "--" ] || die "usage: hosts.sh run K -- CMD [ARGS]"
    k=$2
    shift 3
    if ! msg=$(check); then
        echo "$msg"
        exit 77
    fi
    dir=$(up "$k" $$)
    trap 'down "$dir"' EXIT
    export SYMM_HOSTS_DIR=$dir
    SYMM_HOSTS=$(awk '{print $1}' "$dir/names" | tr '\n' ' ')
    export SYMM_HOSTS=${SYMM_HOSTS% }
    # The command runs in a process group of its own, so that an interrupt reaches all of it
    # (what runs on the hosts goes with them); wait returns at once when a signal comes.
    set -m
    "$@" 0<&0 &
    cmd=$!
    set +m
    trap 'kill -TERM -- "-$cmd" 2>/dev/null; exit 130' INT
    trap 'kill -TERM -- "-$cmd" 2>/dev/null; exit 143' TERM
    set +e
    wait "$cmd"
    rc=$?
    set -e
    exit $rc
    ;;
cut | uncut)
    [ $# -eq 3 ] || die "usage: hosts.sh $1 DIR HOST"
    i=$(host_ns "$2" "$3")
    [ -n "$i" ] || die "$1: no host '$3' in $2"
    i=${i##*-h}
    state=down
    [ "$1" = uncut ] && state=up
    ip -n "symm-$(cat "$2/id")-sw" link set "p$i" "$state"
    ;;
pids)
    [ $# -ge 2 ] || die "usage: hosts.sh pids DIR [HOST]"
    if [ $# -ge 3 ]; then
        ns=$(host_ns "$2" "$3")
        [ -n "$ns" ] || die "pids: no host '$3' in $2"
        ip netns pids "$ns"
    else
        awk '{print $2}' "$2/names" | while read -r ns; do ip netns pids "$ns"; done
    fi
    ;;
*)
    sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
