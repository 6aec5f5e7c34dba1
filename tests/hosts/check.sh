#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks hosts.sh: K hosts each with its own hostname, address and /tmp, reaching one another
# by name; everything removed after a run that succeeds, fails or is interrupted; a run killed
# before it could clean up removed by the next one. Exits 77 (skipped) where test hosts
# cannot be made here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hosts=$here/hosts.sh
msg=$("$hosts" check) || { echo "$msg"; exit 77; }
failures=0
fail() {
    echo "check.sh: $*"
    failures=$((failures + 1))
}
# Namespaces and folders of runs, to compare before and after.
state() { { ip netns list | awk '{print $1}' | grep '^symm-' || true; ls /run/symm-hosts 2>/dev/null || true; } | sort; }

before=$(state)
# Inside a run of 3 hosts.
out=$("$hosts" run 3 -- bash -c '
    set -e
    read -r -a h <<<"$SYMM_HOSTS"
    for i in 0 1 2; do
        e="'"$here"'/enter.sh ${h[$i]}"
        echo "name $i $($e hostname)"
        echo "addr $i $($e "ip -4 -o addr show symm0" | awk "{print \$4}")"
        $e "touch /tmp/mine-$i"
        echo "tmp $i $($e "ls /tmp" | xargs)"
        # Besides its own files, a host sees under /tmp only the paths the run shares (a
        # checkout or build under /tmp): their first folders.
        want=$( { echo mine-$i; for p in $(cat "$SYMM_HOSTS_DIR/shared"); do
            p=${p#/tmp/}; echo "${p%%/*}"; done; } | sort -u | xargs)
        echo "want $i $want"
        j=$(( (i + 1) % 3 ))
        $e "timeout 2 bash -c \"exec 3<>/dev/tcp/${h[$j]}/9\"" 2>&1 | grep -q refused && echo "reach $i ${h[$j]}"
    done
    echo "dir $SYMM_HOSTS_DIR"
    echo "hosts $SYMM_HOSTS"')
read -r -a names <<<"$(sed -n 's/^hosts //p' <<<"$out")"
[ "${#names[@]}" -eq 3 ] || fail "SYMM_HOSTS names ${#names[@]} hosts, not 3"
for i in 0 1 2; do
    grep -qx "name $i ${names[$i]}" <<<"$out" || fail "host $i is not named ${names[$i]}"
    grep -q "^addr $i 10\.[0-9]*\.[0-9]*\.$((i + 1))/24$" <<<"$out" || fail "host $i has no address of the run"
    want=$(sed -n "s/^want $i //p" <<<"$out")
    [[ $want == *mine-$i* ]] && grep -qxF "tmp $i $want" <<<"$out" ||
        fail "host $i sees another host's /tmp, or not its own"
    grep -qx "reach $i ${names[$(( (i + 1) % 3 ))]}" <<<"$out" || fail "host $i does not reach the next by name"
done
[ "$(state)" = "$before" ] || fail "a run left behind: $(comm -13 <(echo "$before") <(state) | xargs)"

# A failing command: its status comes back, nothing is left.
set +e
"$hosts" run 2 -- sh -c 'exit 7'
st=$?
set -e
[ "$st" -eq 7 ] || fail "a run's command exited 7 and the run $st"
[ "$(state)" = "$before" ] || fail "a failed run left behind: $(comm -13 <(echo "$before") <(state) | xargs)"

# Interrupted (SIGINT, as Ctrl-C), with a process running on a host.
# (A background job of a script ignores SIGINT unless it has a process group of its own.)
set -m
"$hosts" run 2 -- bash -c '"$0" "${SYMM_HOSTS%% *}" "sleep 301" & sleep 300' "$here/enter.sh" &
runner=$!
set +m
for _ in $(seq 1 100); do
    [ "$(state)" != "$before" ] && [ -n "$(pgrep -f '^sleep 301$' || true)" ] && break
    sleep 0.1
done
kill -INT "$runner"
timeout 10 tail --pid="$runner" -f /dev/null || fail "an interrupted run did not end"
[ "$(state)" = "$before" ] || fail "an interrupted run left behind: $(comm -13 <(echo "$before") <(state) | xargs)"

# Killed with no chance to clean up: the next run removes what it left.
dir=$("$hosts" up 2)
"$hosts" pids "$dir" >/dev/null
id=$(cat "$dir/id")
echo 0 >"$dir/owner"
"$hosts" run 1 -- true
ip netns list | grep -q "^symm-$id-" && fail "a dead run's namespaces were not removed"
[ -e "$dir" ] && fail "a dead run's folder was not removed"
[ "$(state)" = "$before" ] || fail "left behind at the end: $(comm -13 <(echo "$before") <(state) | xargs)"

if [ "$failures" -ne 0 ]; then
    echo "check.sh: $failures failures"
    exit 1
fi
echo "check.sh: hosts made, named, reachable and removed: all checks right"
