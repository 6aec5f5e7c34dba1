# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""The Python interface under symmrun: symmetric arrays (symm.array, symm.peer, symm.free) and
symm.ep.Buffer's dispatch and combine against a reference computed locally, for random
routing, every token to one expert, no token leaving its PE, zero tokens on some PEs and uneven
counts, over several rounds of one buffer each.

    symmrun -n 2 python3 tests/ep/ep_test.py [--device cuda]

With --device cuda the tokens are torch tensors on the PEs' GPUs (bfloat16). Every PE can
recompute every PE's tokens and routing (seeded by case, round and PE), so each checks what it
receives exactly and its combined tokens against the reference (exactly on CPU: the values are
chosen so that float arithmetic on them is exact; within bfloat16's rounding on GPU). A PE that
finds a difference prints it and exits with status 1, which ends the job."""

import sys

import numpy as np

import symm

DEVICE = "cuda" if "--device" in sys.argv and sys.argv[sys.argv.index("--device") + 1] == "cuda" \
    else "cpu"


def fail(what):
    print("ep_test: [pe %d] %s" % (symm.my_pe(), what), file=sys.stderr, flush=True)
    sys.exit(1)


def expect(cond, what):
    if not cond:
        fail(what)


def tokens_of(counts, tokens, pe, n):
    if counts == "uneven":
        return tokens - (pe * (tokens // n + 1)) % (tokens + 1)
    if counts == "zero":
        return 0 if pe % 2 == 1 or n == 1 else tokens
    return tokens


def make(case, rnd, pe, n):
    """PE pe's tokens, routing and weights in round rnd of a case."""
    name, experts, hidden, tokens, topk, channels, routing, counts = case
    rng = np.random.default_rng([len(name), rnd, pe, experts, tokens])
    t = tokens_of(counts, tokens, pe, n)
    local = experts // n
    x = (rng.integers(-32, 32, (t, hidden)) / 8).astype(np.float32)
    idx = np.full((t, topk), -1, np.int64)
    for i in range(t):
        if routing == "one":
            idx[i, 0] = experts - 1
        elif routing == "local":
            idx[i] = pe * local + rng.choice(local, topk, replace=False)
        else:
            idx[i] = rng.choice(experts, topk, replace=False)
    w = (rng.integers(1, 17, (t, topk)) / 32).astype(np.float32)
    return x, idx, w


def expert(e, x):
    return x * float(0.5 * (e % 4 + 1)) + float(0.125 * (e % 8))


def host(a):
    """A NumPy copy of an array or tensor; bfloat16 as float32, integers kept."""
    if hasattr(a, "detach"):
        a = a.detach().cpu()
        return (a.float() if a.is_floating_point() else a).numpy()
    return np.asarray(a)


def check_dispatch(case, rnd, d, me, n):
    name, experts = case[0], case[1]
    local = experts // n
    counts = host(d.expert_counts)
    xr, pe_r, src_r, w_r = host(d.x), host(d.src_pe), host(d.src_index), host(d.weight)
    start = np.concatenate([[0], np.cumsum(counts)])
    where = "%s round %d" % (name, rnd)
    expect(len(counts) == local and start[-1] == len(xr), "%s: %d rows, expert counts %s"
           % (where, len(xr), counts))
    seen = np.zeros(local, np.int64)
    for s in range(n):
        x, idx, w = make(case, rnd, s, n)
        for t in range(len(x)):
            for k in range(idx.shape[1]):
                el = idx[t, k] - me * local
                if idx[t, k] < 0 or not 0 <= el < local:
                    continue
                row = start[el] + seen[el]
                seen[el] += 1
                expect(row < start[el + 1], "%s: expert %d got %d rows, fewer than sent to it"
                       % (where, idx[t, k], counts[el]))
                expect(pe_r[row] == s and src_r[row] == t and w_r[row] == w[t, k] and
                       (xr[row] == x[t]).all(),
                       "%s: expert %d row %d is (pe %d, token %d, weight %g), expected (pe %d, "
                       "token %d, weight %g) and the token's values"
                       % (where, idx[t, k], row, pe_r[row], src_r[row], w_r[row], s, t, w[t, k]))
    expect((seen == counts).all(), "%s: experts got %s rows, the routing sends %s"
           % (where, counts, seen))


def run_case(case):
    name, experts, hidden, tokens, topk, channels = case[:6]
    me, n = symm.my_pe(), symm.n_pes()
    local = experts // n
    buf = symm.ep.Buffer(experts, hidden, tokens, topk, channels=channels, device=DEVICE)
    for rnd in range(3):
        x, idx, w = make(case, rnd, me, n)
        if DEVICE == "cuda":
            import torch
            dev = torch.device("cuda", symm.gpu_device())
            d = buf.dispatch(torch.from_numpy(x).to(dev, torch.bfloat16),
                             torch.from_numpy(idx).to(dev), torch.from_numpy(w).to(dev))
        else:
            d = buf.dispatch(x, idx, w)
        check_dispatch(case, rnd, d, me, n)
        counts = host(d.expert_counts)
        y = d.x.clone() if DEVICE == "cuda" else d.x.copy()
        start = np.concatenate([[0], np.cumsum(counts)])
        for el in range(local):
            y[start[el]:start[el + 1]] = expert(me * local + el, d.x[start[el]:start[el + 1]])
        out = host(buf.combine(y, d.handle))
        ref = np.zeros_like(x)
        mag = np.zeros_like(x)
        for k in range(topk):
            for t in range(len(x)):
                if idx[t, k] >= 0:
                    term = w[t, k] * expert(idx[t, k], x[t])
                    ref[t] += term
                    mag[t] += np.abs(term)
        tol = 0.0 if DEVICE == "cpu" else 1.0 / 64
        bad = np.nonzero(np.abs(out - ref) > tol * mag)
        expect(out.shape == ref.shape and len(bad[0]) == 0,
               "%s round %d: combined %s, the reference %s"
               % (name, rnd, out[bad][:4] if len(bad[0]) else out.shape,
                  ref[bad][:4] if len(bad[0]) else ref.shape))
    buf.free()


def check_arrays():
    me, n = symm.my_pe(), symm.n_pes()
    a = symm.array((4, 3), "int64")
    expect(a.shape == (4, 3) and a.dtype == np.int64 and a.flags.writeable,
           "symm.array: shape %s, dtype %s" % (a.shape, a.dtype))
    a[:] = np.arange(12).reshape(4, 3) + 100 * me
    symm.barrier()
    for pe in range(n):
        p = symm.peer(a, pe)
        if p is not None:
            expect((p == np.arange(12).reshape(4, 3) + 100 * pe).all(),
                   "symm.peer(a, %d) reads %s" % (pe, p.ravel()))
    expect(symm.peer(a, me) is not None, "symm.peer(a, this PE) is None")
    symm.barrier()
    right = symm.peer(a, (me + 1) % n)
    if right is not None:
        right[0, 0] = -me
    symm.barrier()
    left = (me - 1) % n
    if symm.peer(a, left) is not None:
        expect(a[0, 0] == -left, "a store through symm.peer did not land: %d" % a[0, 0])
    symm.barrier()
    empty = symm.array(0, "float32")
    expect(empty.shape == (0,), "symm.array(0) has shape %s" % (empty.shape,))
    symm.free(empty)
    symm.free(a)


# name, experts (per PE), hidden, tokens, topk, channels, routing, counts
CASES = [
    ("random", 4, 16, 40, 2, 2, "random", "even"),
    ("one_expert", 2, 8, 33, 3, 3, "one", "uneven"),
    ("local", 4, 12, 24, 2, 3, "local", "even"),
    ("zero_tokens", 3, 8, 20, 2, 2, "random", "zero"),
    ("uneven", 3, 24, 37, 3, 1, "random", "uneven"),
]


def main():
    symm.init()
    n = symm.n_pes()
    if DEVICE == "cpu":
        check_arrays()
    for name, per_pe, *rest in CASES:
        run_case((name, per_pe * n, *rest))
    symm.barrier()
    if symm.my_pe() == 0:
        print("ep_test: %d PEs, %s: arrays and %d dispatch/combine cases agree with the reference"
              % (n, DEVICE, len(CASES)), flush=True)
    symm.finalize()


if __name__ == "__main__":
    main()
