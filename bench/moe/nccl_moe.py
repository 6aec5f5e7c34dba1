# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""MoE dispatch and combine as a PyTorch user writes them: torch.distributed on NCCL, the
counts exchanged by all_to_all_single, the tokens sorted by destination PE and sent by
all_to_all_single, then grouped by local expert on arrival; combine weighs each received
token's expert outputs, sends the partial sums back the same way and adds them in token
order. The same shapes and traffic as moe_gpu --bench: each token once to every PE that holds
one of its experts, with its expert indices and gate weights.

    torchrun --nproc_per_node 2 bench/moe/nccl_moe.py [--tokens 128,...,8192] [--hidden 7168]
        [--experts 256] [--topk 8] [--warmup 5] [--iters 20]

Rank 0 prints a line of key=value pairs per token count; the times (events around each
phase, the largest over the ranks) include the host waits the count exchange forces."""

import argparse
import os
import sys

import torch
import torch.distributed as dist


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--tokens", default="128,256,512,1024,2048,4096,8192")
    p.add_argument("--hidden", type=int, default=7168)
    p.add_argument("--experts", type=int, default=256)
    p.add_argument("--topk", type=int, default=8)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=20)
    return p.parse_args()


def a2a(x, out_splits, in_splits):
    out = x.new_empty((sum(out_splits),) + tuple(x.shape[1:]))
    dist.all_to_all_single(out, x, out_splits, in_splits)
    return out


def dispatch(x, idx, w, n, local):
    """x: tokens x hidden, idx/w: tokens x topk. Returns the rows grouped by local expert and
    what combine needs."""
    me = dist.get_rank()
    tokens, topk = idx.shape
    to = torch.zeros(tokens, n, dtype=torch.bool, device=x.device)
    to.scatter_(1, (idx // local).long(), True)
    pe, tok = to.t().nonzero(as_tuple=True)          # sorted by destination PE
    send = torch.bincount(pe, minlength=n)
    recv = torch.empty_like(send)
    dist.all_to_all_single(recv, send)
    send_l, recv_l = send.tolist(), recv.tolist()
    meta = torch.cat([idx[tok], w[tok].view(torch.int32)], dim=1)
    rx = a2a(x[tok], recv_l, send_l)
    rmeta = a2a(meta, recv_l, send_l)
    el = rmeta[:, :topk] - me * local
    rw = rmeta[:, topk:].view(torch.float32)
    mine = (el >= 0) & (el < local)
    r, k = mine.nonzero(as_tuple=True)
    order = torch.argsort(el[r, k], stable=True)      # rows grouped by local expert
    r, k = r[order], k[order]
    rows = rx[r]
    return rows, (r, rw[r, k], rx.shape[0], tok, send_l, recv_l)


def combine(y, handle, tokens):
    r, weight, received, tok, send_l, recv_l = handle
    part = torch.zeros(received, y.shape[1], dtype=torch.float32, device=y.device)
    part.index_add_(0, r, y.float() * weight[:, None])
    back = a2a(part.to(torch.bfloat16), send_l, recv_l)
    out = torch.zeros(tokens, y.shape[1], dtype=torch.float32, device=y.device)
    out.index_add_(0, tok, back.float())
    return out.to(torch.bfloat16)


def run(a, tokens, n, dev):
    local = a.experts // n
    gen = torch.Generator(device=dev)
    gen.manual_seed(1 + dist.get_rank())
    x = torch.randn(tokens, a.hidden, generator=gen, device=dev).to(torch.bfloat16)
    idx = torch.rand(tokens, a.experts, generator=gen, device=dev).topk(a.topk, dim=1).indices
    idx = idx.to(torch.int32)
    w = torch.rand(tokens, a.topk, generator=gen, device=dev) / a.topk
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
    disp = comb = 0.0
    out = None
    for i in range(a.warmup + a.iters):
        ev[0].record()
        rows, handle = dispatch(x, idx, w, n, local)
        ev[1].record()
        out = combine(rows, handle, tokens)      # the identity as every expert
        ev[2].record()
        ev[2].synchronize()
        if i >= a.warmup:
            disp += ev[0].elapsed_time(ev[1]) * 1e3 / a.iters
            comb += ev[1].elapsed_time(ev[2]) * 1e3 / a.iters
    ref = (x.float() * w.sum(dim=1, keepdim=True)).to(torch.bfloat16)
    bad = int((~torch.isclose(out.float(), ref.float(), rtol=2e-2, atol=2e-2)).sum())
    t = torch.tensor([disp, comb, float(bad)], dtype=torch.float64, device=dev)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return t.tolist()


def main():
    a = parse()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl")
    rank, n = dist.get_rank(), dist.get_world_size()
    dev = torch.device("cuda")
    if a.experts % n:
        if rank == 0:
            print("nccl_moe: --experts %d is not a multiple of %d ranks" % (a.experts, n),
                  file=sys.stderr)
        sys.exit(2)
    rc = 0
    for tokens in [int(v) for v in a.tokens.split(",")]:
        disp, comb, bad = run(a, tokens, n, dev)
        if bad:
            rc = 1
        if rank == 0:
            print("nccl_moe bench: pes=%d tokens=%d hidden=%d experts=%d topk=%d warmup=%d "
                  "iters=%d dispatch_us=%.2f combine_us=%.2f total_us=%.2f wrong=%d"
                  % (n, tokens, a.hidden, a.experts, a.topk, a.warmup, a.iters, disp, comb,
                     disp + comb, int(bad)), flush=True)
    dist.destroy_process_group()
    sys.exit(rc)


if __name__ == "__main__":
    main()
