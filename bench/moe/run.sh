#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The MoE benchmark in one command, on a GPU machine: symm's GPU dispatch and combine
# (moe_gpu --bench), the peer-store ceiling of the same run, and the NCCL all_to_all path a
# PyTorch user writes (nccl_moe.py), over tokens per PE, with DeepSeek-V3 shapes; writes
# docs/bench-moe.md and docs/bench-moe.png. Builds nothing: BUILD must hold moe_gpu and
# symmrun. Two PEs when the machine has two GPUs or more, else a 1-PE smoke run (NCCL cannot
# put two ranks on one GPU).
#   bench/moe/run.sh BUILD [DOC]
# Environment: MOE_TOKENS (128 ... 8192), MOE_CHANNELS (channel counts tried at 4096 tokens,
# the fastest kept: 32 64), MOE_WARMUP (5), MOE_ITERS (20), TORCHRUN (torchrun), PYTHON
# (python3; the plot needs matplotlib or gnuplot).
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:?usage: bench/moe/run.sh BUILD [DOC]}
doc=${2:-docs/bench-moe.md}
png=${doc%.md}.png
tokens=${MOE_TOKENS:-128 256 512 1024 2048 4096 8192}
channel_tries=${MOE_CHANNELS:-32 64}
warmup=${MOE_WARMUP:-5}
iters=${MOE_ITERS:-20}
torchrun=${TORCHRUN:-torchrun}
python=${PYTHON:-python3}
shape="--hidden 7168 --experts 256 --topk 8"
moe=$build/examples/moe/moe_gpu
symmrun=$build/tools/symmrun
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0

for f in "$moe" "$symmrun"; do
    [ -x "$f" ] || { echo "run.sh: $f is missing: build moe_gpu and symmrun first" >&2; exit 2; }
done
command -v "$torchrun" >/dev/null || { echo "run.sh: no $torchrun on PATH (TORCHRUN)" >&2; exit 2; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -ge 1 ] || { echo "run.sh: no GPU found by nvidia-smi" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/note.txt"
echo "# bench/moe/run.sh $*: the jobs it ran" >"$work/commands.txt"
if [ "$gpus" -ge 2 ]; then
    pes=2
else
    pes=1
    echo "This machine has one GPU: two PEs cannot share it under NCCL, so this is the 1-PE" \
        "smoke run (no byte crosses a link; the figures are not the benchmark's)." |
        tee "$work/note.txt"
fi
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -"$pes"
    nvidia-smi topo -m 2>/dev/null | head -$((pes + 1))
    "$python" -c 'import torch; print("torch", torch.__version__, "NCCL", ".".join(map(str, torch.cuda.nccl.version())))' 2>&1
} >"$work/machine.txt"

# job SECONDS INTO COMMAND: runs COMMAND (one string, split into words) within SECONDS, its
# output appended to INTO, the command to commands.txt.
job() {
    local s=$1 into=$2 cmd=$3
    echo "$cmd" >>"$work/commands.txt"
    echo "run.sh: $cmd" >&2
    # shellcheck disable=SC2086 # the command is split into its words
    timeout "$s" $cmd >>"$into" 2>"$work/err.txt" || {
        echo "run.sh: failed: $cmd" >&2
        tail -20 "$work/err.txt" >&2
        return 1
    }
}

# One moe_gpu job: TOKENS CHANNELS INTO.
symm_job() {
    job 330 "$3" "$symmrun -n $pes --timeout 300 $moe --bench --tokens $1 $shape --channels $2 --warmup $warmup --iters $iters"
}

# The channel count: the fastest end to end at 4096 tokens among those tried.
best=""
best_us=""
for ch in $channel_tries; do
    symm_job 4096 "$ch" "$work/tries.txt" || exit 1
    us=$(tail -1 "$work/tries.txt" | tr ' ' '\n' |
        awk -F= '$1 == "dispatch_us" || $1 == "combine_us" { s += $2 } END { print s }')
    if [ -z "$best" ] || awk -v a="$us" -v b="$best_us" 'BEGIN { exit !(a < b) }'; then
        best=$ch
        best_us=$us
    fi
done
echo "run.sh: $best channels ($best_us us end to end at 4096 tokens)" >&2
echo "# channels tried at 4096 tokens: $channel_tries; kept: $best" >>"$work/commands.txt"
for t in $tokens; do
    symm_job "$t" "$best" "$work/results.txt" || exit 1
done

list=$(echo "$tokens" | tr -s ' ' ',')
job 600 "$work/results.txt" "$torchrun --standalone --nproc_per_node $pes bench/moe/nccl_moe.py --tokens $list $shape --warmup $warmup --iters $iters" || exit 1
cat "$work/results.txt"
"$python" bench/moe/report.py "$work" "$doc" "$png"
