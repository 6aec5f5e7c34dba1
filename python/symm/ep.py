# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""MoE dispatch and combine over symmetric memory (the layouts of symm/ep.h).

    buf = symm.ep.Buffer(num_experts=16, hidden=1024, max_tokens=512, topk=2)   # collective
    d = buf.dispatch(x, topk_idx, topk_weights)   # x: tokens x hidden
    y = my_experts(d.x, d.expert_counts)          # rows grouped by local expert
    out = buf.combine(y, d.handle)                # tokens x hidden, in x's order

On CPU PEs (device="cpu", the default) x, y and the results are NumPy arrays; on GPU PEs
(device="cuda") they are torch tensors on this PE's GPU, and the data moves on torch's current
stream. Experts are spread evenly: PE p holds experts p * L .. (p + 1) * L - 1, L =
num_experts / n_pes. A topk index of -1 is no expert.

dispatch exchanges the per-destination counts, then sends each token once to every PE that
holds one of its experts, into the receive slot of its channel (channels are contiguous ranges
of tokens) with a signal per channel and destination. What a PE gets: the rows for its experts,
grouped by expert and, within an expert, ordered by source PE and source index, with each
row's source PE, source index and gate weight. combine sums, on the expert side, each token's
rows times their gate weights, sends that partial back, and adds the partials of all
destinations in the original token order.

Routing metadata travels in the host heap and is handled by NumPy on the host (the torch path
waits for topk_idx and topk_weights there); token rows travel in the data's own memory. The
count exchange (a collective) also keeps a slot from being written before its reader is done
with the last round; on GPU PEs a barrier on the stream does the same for the stream's work.
Both calls are collective: every PE calls them in the same order."""

import ctypes
from collections import namedtuple

from . import _lib, _numpy, _torch, _host_array, _device_tensor, gpu_device
from . import my_pe, n_pes

ALIGN = 128  # SHMEMX_EP_ALIGN
_SIZE_MAX = (1 << 64) - 1

Dispatched = namedtuple("Dispatched", "x src_pe src_index weight expert_counts handle")
Dispatched.__doc__ = """What dispatch hands a PE: x (rows x hidden, grouped by local expert:
expert i's rows follow those of experts 0..i-1, expert_counts[i] of them), per row its source
PE, source index and gate weight, and the handle combine needs."""

_Handle = namedtuple("_Handle", "round tokens rows sent rcount rows_of weight")


def _up(v, a):
    return (v + a - 1) // a * a


class _Cursor(ctypes.Structure):
    """shmemx_ep_cursor_t, measuring: the same regions and signature as the C carve."""
    _fields_ = [("base", ctypes.c_size_t), ("size", ctypes.c_size_t),
                ("used", ctypes.c_size_t), ("align", ctypes.c_size_t),
                ("sig", ctypes.c_uint64), ("regions", ctypes.c_int), ("error", ctypes.c_int),
                ("bad_region", ctypes.c_int), ("bad_bytes", ctypes.c_size_t),
                ("bad_align", ctypes.c_size_t)]

    def __init__(self):
        super().__init__(0, _SIZE_MAX, 0, 1, 0xcbf29ce484222325, 0, 0, -1, 0, 0)

    def carve(self, nbytes, align=ALIGN):
        off = _up(self.used, align)
        self.used = off + nbytes
        self.align = max(self.align, align)
        sig = self.sig
        for v in (nbytes, align):
            sig = ((sig ^ v) * 0x100000001b3) & _SIZE_MAX
        self.sig = sig
        self.regions += 1
        return off

    def allocate(self, hints):
        ptr = _lib.lib().shmemx_ep_malloc(ctypes.byref(self), hints)
        if not ptr:
            raise MemoryError("symm.ep.Buffer: a heap cannot hold %d more bytes on some PE "
                              "(SHMEM_SYMMETRIC_SIZE, SYMM_DEVICE_HEAP_SIZE)" % self.used)
        return ptr


class _Chan:
    """A channel buffer (shmemx_ep_chan): offsets from its block's start."""

    def __init__(self, cur, channels, ranks, me, slot):
        self.slot = _up(slot, ALIGN)
        self.ranks, self.me = ranks, me
        n = channels * ranks
        self.send = cur.carve(n * self.slot)
        self.recv = cur.carve(n * self.slot)
        self.sig = cur.carve(n * 8)
        self.nsig = n

    def send_slot(self, ch, r):
        return self.send + (ch * self.ranks + r) * self.slot

    def recv_slot(self, ch, r):
        return self.recv + (ch * self.ranks + r) * self.slot

    def signal(self, ch, r):
        return self.sig + (ch * self.ranks + r) * 8


def _meta_parts(m, topk):
    """Offsets of a metadata slot holding m tokens: source indices, experts, weights; bytes."""
    idx = _up(4 * m, 16)
    w = idx + _up(4 * m * topk, 16)
    return idx, w, w + 4 * m * topk


class _NumpyData:
    """Token rows in the host heap, NumPy arrays, host calls."""

    def __init__(self, dtype):
        np = _numpy()
        self.np = np
        self.dtype = np.dtype("float32" if dtype is None else dtype)
        self.esize = self.dtype.itemsize
        self.hints = 0

    def block(self, ptr, nbytes):
        return _host_array(ptr, (nbytes,), "uint8")

    def view(self, u8, off, shape):
        """The bytes of a block from off, as an array of `shape` (NumPy and torch alike)."""
        count = 1
        for s in shape:
            count *= s
        return u8[off:off + count * self.esize].view(self.dtype).reshape(shape)

    def rows(self, x, tokens, hidden, what):
        np = self.np
        x = np.ascontiguousarray(x, dtype=self.dtype)
        if x.shape != (tokens, hidden):
            raise ValueError("symm.ep.Buffer.%s: shape %s, expected (%d, %d)"
                             % (what, x.shape, tokens, hidden))
        return x

    def host(self, a):
        return self.np.asarray(a)

    def index(self, a):
        return a

    def out(self, a):
        return a

    def zero(self, a):
        a[...] = 0

    def empty(self, shape):
        return self.np.empty(shape, self.dtype)

    def gather(self, dst, src, idx):
        dst[...] = src[idx]

    def scatter(self, dst, rows, src, idx):
        dst[rows] = src[idx]

    def weighted(self, y, rows_of, weight, hidden):
        np = self.np
        acc = np.zeros((rows_of.shape[0], hidden), np.float32)
        for k in range(rows_of.shape[1]):
            g = np.nonzero(rows_of[:, k] >= 0)[0]
            r = rows_of[g, k]
            acc[g] += weight[r, None] * y[r]
        return acc.astype(self.dtype)

    def accumulate(self, shape):
        return self.np.zeros(shape, self.np.float32)

    def add(self, acc, rows, src):
        acc[rows] += src

    def result(self, acc):
        return acc.astype(self.dtype)

    def begin(self):
        pass

    def sync(self):
        pass

    def put_signal(self, dest, src, nbytes, sig, value, pe):
        _lib.lib().shmem_putmem_signal(dest, src, nbytes, sig, value, _lib.SHMEM_SIGNAL_SET, pe)

    def wait(self, sig, value):
        _lib.lib().shmem_signal_wait_until(sig, _lib.SHMEM_CMP_GE, value)


class _TorchData(_NumpyData):
    """Token rows in the device heap, torch tensors, operations on torch's current stream."""

    def __init__(self, dtype):
        torch = _torch()
        if not _lib.has("shmemx_malloc_device"):
            raise RuntimeError("symm.ep.Buffer(device='cuda'): this libsymm was built without "
                               "CUDA")
        self.np = _numpy()
        self.torch = torch
        self.dtype = torch.bfloat16 if dtype is None else dtype
        self.esize = torch.empty((), dtype=self.dtype).element_size()
        self.hints = _lib.SHMEMX_MALLOC_DEVICE

    def block(self, ptr, nbytes):
        self.torch.cuda.set_device(gpu_device())
        self.device = self.torch.device("cuda", gpu_device())
        return _device_tensor(ptr, (nbytes,), self.torch.uint8)

    def rows(self, x, tokens, hidden, what):
        if tuple(x.shape) != (tokens, hidden):
            raise ValueError("symm.ep.Buffer.%s: shape %s, expected (%d, %d)"
                             % (what, tuple(x.shape), tokens, hidden))
        return x.to(device=self.device, dtype=self.dtype).contiguous()

    def host(self, a):
        if isinstance(a, self.torch.Tensor):
            a = a.detach().cpu()
            return (a.float() if a.is_floating_point() else a).numpy()
        return self.np.asarray(a)

    def index(self, a):
        return self.torch.from_numpy(self.np.ascontiguousarray(a, dtype="int64")).to(
            self.device)

    def out(self, a):
        return self.torch.from_numpy(self.np.ascontiguousarray(a)).to(self.device)

    def zero(self, a):
        a.zero_()

    def empty(self, shape):
        return self.torch.empty(shape, dtype=self.dtype, device=self.device)

    def gather(self, dst, src, idx):
        self.torch.index_select(src, 0, self.index(idx), out=dst)

    def scatter(self, dst, rows, src, idx):
        dst.index_copy_(0, self.index(rows), src.index_select(0, self.index(idx)))

    def weighted(self, y, rows_of, weight, hidden):
        torch, np = self.torch, self.np
        acc = torch.zeros((rows_of.shape[0], hidden), dtype=torch.float32, device=self.device)
        for k in range(rows_of.shape[1]):
            g = np.nonzero(rows_of[:, k] >= 0)[0]
            r = rows_of[g, k]
            w = torch.from_numpy(np.ascontiguousarray(weight[r], dtype="float32")).to(
                self.device)
            acc.index_add_(0, self.index(g), y.index_select(0, self.index(r)).float() * w[:, None])
        return acc.to(self.dtype)

    def accumulate(self, shape):
        return self.torch.zeros(shape, dtype=self.torch.float32, device=self.device)

    def add(self, acc, rows, src):
        acc.index_add_(0, self.index(rows), src.float())

    def result(self, acc):
        return acc.to(self.dtype)

    def _stream(self):
        return ctypes.c_void_p(self.torch.cuda.current_stream().cuda_stream)

    def begin(self):
        _lib.lib().shmemx_barrier_all_on_stream(self._stream())

    def sync(self):
        self.torch.cuda.synchronize()

    def put_signal(self, dest, src, nbytes, sig, value, pe):
        _lib.lib().shmemx_putmem_signal_on_stream(dest, src, nbytes, sig, value,
                                                  _lib.SHMEM_SIGNAL_SET, pe, self._stream())

    def wait(self, sig, value):
        _lib.lib().shmemx_signal_wait_until_on_stream(sig, _lib.SHMEM_CMP_GE, value,
                                                      self._stream())


class Buffer:
    """The buffers of one dispatch/combine pair (collective to make): room for max_tokens
    tokens of `hidden` elements a PE, top-`topk` routing over num_experts experts, the tokens
    of a PE split into `channels` channels. device "cpu": NumPy, dtype default float32;
    "cuda": torch on this PE's GPU, dtype default torch.bfloat16."""

    def __init__(self, num_experts, hidden, max_tokens, topk, dtype=None, channels=2,
                 device="cpu"):
        np = _numpy()
        n, me = n_pes(), my_pe()
        if device not in ("cpu", "cuda"):
            raise ValueError("symm.ep.Buffer: device %r (cpu or cuda)" % (device,))
        if min(num_experts, hidden, topk, channels) < 1 or max_tokens < 0:
            raise ValueError("symm.ep.Buffer: num_experts, hidden, topk and channels must be at "
                             "least 1, max_tokens at least 0")
        if num_experts % n:
            raise ValueError("symm.ep.Buffer: %d experts do not spread evenly over %d PEs"
                             % (num_experts, n))
        self.num_experts, self.hidden, self.max_tokens = num_experts, hidden, max_tokens
        self.topk, self.channels, self.n, self.me = topk, channels, n, me
        self.local = num_experts // n
        self._data = _NumpyData(dtype) if device == "cpu" else _TorchData(dtype)
        self.dtype = self._data.dtype
        self._per_pe = channels * (1 + self.local)
        cap = (max_tokens + channels - 1) // channels
        hc = _Cursor()
        self._cnt_send = hc.carve(n * self._per_pe * 4)
        self._cnt_recv = hc.carve(n * self._per_pe * 4)
        self._meta = _Chan(hc, channels, n, me, _meta_parts(cap, topk)[2])
        dc = _Cursor()
        self._disp = _Chan(dc, channels, n, me, cap * hidden * self._data.esize)
        self._comb = _Chan(dc, channels, n, me, cap * hidden * self._data.esize)
        self._hptr = hc.allocate(0)
        self._dptr = dc.allocate(self._data.hints)
        self._host = _host_array(self._hptr, (hc.used,), "uint8")
        self._dblk = self._data.block(self._dptr, dc.used)
        self._host[self._meta.sig:self._meta.sig + 8 * self._meta.nsig] = 0
        for ch in (self._disp, self._comb):
            self._data.zero(self._dblk[ch.sig:ch.sig + 8 * ch.nsig])
        self._data.sync()
        self._rounds = [0, 0]
        self._np = np
        _lib.lib().shmem_barrier_all()

    def free(self):
        """Frees the buffer's memory (collective); the buffer cannot be used afterwards."""
        lib = _lib.lib()
        lib.shmem_free(ctypes.c_void_p(self._hptr))
        if self._data.hints:
            lib.shmemx_free_device(ctypes.c_void_p(self._dptr))
        else:
            lib.shmem_free(ctypes.c_void_p(self._dptr))
        self._hptr = self._dptr = None

    def _i32(self, off, count):
        return self._host[off:off + 4 * count].view(self._np.int32)

    def _meta_views(self, off, m):
        i, w, end = _meta_parts(m, self.topk)
        u8 = self._host[off:off + end]
        k = self.topk
        return (u8[:4 * m].view(self._np.int32), u8[i:i + 4 * m * k].view(self._np.int32)
                .reshape(m, k), u8[w:end].view(self._np.float32).reshape(m, k), end)

    def dispatch(self, x, topk_idx, topk_weights):
        """Sends x's tokens to the PEs of their experts (collective); returns Dispatched."""
        np, d = self._np, self._data
        C, n, L, K, H, me = (self.channels, self.n, self.local, self.topk, self.hidden,
                             self.me)
        idx = np.asarray(d.host(topk_idx), dtype=np.int64)
        w = np.asarray(d.host(topk_weights), dtype=np.float32)
        T = idx.shape[0] if idx.ndim == 2 else -1
        if idx.ndim != 2 or idx.shape[1] != K or w.shape != idx.shape:
            raise ValueError("symm.ep.Buffer.dispatch: topk_idx %s and topk_weights %s must "
                             "both be tokens x %d" % (idx.shape, w.shape, K))
        if T > self.max_tokens:
            raise ValueError("symm.ep.Buffer.dispatch: %d tokens, the buffer holds %d"
                             % (T, self.max_tokens))
        bad = np.nonzero((idx < -1) | (idx >= self.num_experts))
        if len(bad[0]):
            raise ValueError("symm.ep.Buffer.dispatch: topk_idx[%d][%d] = %d is not an expert "
                             "(0..%d, or -1)" % (bad[0][0], bad[1][0], idx[bad][0],
                                                 self.num_experts - 1))
        x = d.rows(x, T, H, "dispatch")
        self._rounds[0] += 1
        rnd = self._rounds[0]
        lib = _lib.lib()

        first = (T * np.arange(C + 1)) // C
        chan = np.repeat(np.arange(C), np.diff(first))
        tt, kk = np.nonzero(idx >= 0)
        e = idx[tt, kk]
        to = np.zeros((T, n), bool)
        to[tt, e // L] = True
        td, dd = np.nonzero(to)
        cnt = np.zeros((n, self._per_pe), np.int32)
        np.add.at(cnt, (dd, chan[td]), 1)
        np.add.at(cnt, (e // L, C + chan[tt] * L + e % L), 1)
        self._i32(self._cnt_send, cnt.size)[:] = cnt.ravel()
        lib.shmem_alltoallmem(_lib.team_world(), self._hptr + self._cnt_recv,
                              self._hptr + self._cnt_send, self._per_pe * 4)
        got = self._i32(self._cnt_recv, cnt.size).reshape(n, self._per_pe).copy()
        d.begin()

        sent = [[None] * n for _ in range(C)]
        for c in range(C):
            for i in range(1, n + 1):
                pe = (me + i) % n
                tok = first[c] + np.nonzero(to[first[c]:first[c + 1], pe])[0]
                sent[c][pe] = tok
                m = len(tok)
                if m == 0:
                    continue
                off = self._meta.send_slot(c, pe)
                src, ki, kw, nbytes = self._meta_views(off, m)
                src[:], ki[:], kw[:] = tok, idx[tok], w[tok]
                lib.shmem_putmem_signal(self._hptr + self._meta.recv_slot(c, me),
                                        self._hptr + off, nbytes,
                                        self._hptr + self._meta.signal(c, me), rnd,
                                        _lib.SHMEM_SIGNAL_SET, pe)
                off = self._disp.send_slot(c, pe)
                d.gather(d.view(self._dblk, off, (m, H)), x, tok)
                d.put_signal(self._dptr + self._disp.recv_slot(c, me), self._dptr + off,
                             m * H * d.esize, self._dptr + self._disp.signal(c, me), rnd, pe)

        # What arrives, in (source, channel) order, which is (source, token) order.
        rcount = got[:, :C]
        pe_of, src_of, idx_r, w_r = [], [], [], []
        for s in range(n):
            for c in range(C):
                m = int(rcount[s, c])
                if m == 0:
                    continue
                lib.shmem_signal_wait_until(self._hptr + self._meta.signal(c, s),
                                            _lib.SHMEM_CMP_GE, rnd)
                src, ki, kw, _ = self._meta_views(self._meta.recv_slot(c, s), m)
                pe_of.append(np.full(m, s, np.int32))
                src_of.append(src.copy())
                idx_r.append(ki.astype(np.int64))
                w_r.append(kw.copy())
        rtok = int(rcount.sum())
        pe_of = np.concatenate(pe_of) if pe_of else np.zeros(0, np.int32)
        src_of = np.concatenate(src_of) if src_of else np.zeros(0, np.int32)
        idx_r = np.concatenate(idx_r) if idx_r else np.zeros((0, K), np.int64)
        w_r = np.concatenate(w_r) if w_r else np.zeros((0, K), np.float32)
        el = idx_r - me * L
        gg, kl = np.nonzero((idx_r >= 0) & (el >= 0) & (el < L))
        els = el[gg, kl]
        counts = np.bincount(els, minlength=L)
        if (counts != got[:, C:].reshape(n, C, L).sum(axis=(0, 1))).any():
            raise RuntimeError("symm.ep.Buffer.dispatch: the tokens received do not match the "
                               "counts their senders announced")
        R = len(gg)
        row = np.empty(R, np.int64)
        row[np.argsort(els, kind="stable")] = np.arange(R)
        rows_of = np.full((rtok, K), -1, np.int64)
        rows_of[gg, kl] = row
        src_pe = np.empty(R, np.int32)
        src_index = np.empty(R, np.int32)
        weight = np.empty(R, np.float32)
        src_pe[row], src_index[row], weight[row] = pe_of[gg], src_of[gg], w_r[gg, kl]

        recv_x = d.empty((R, H))
        g0 = 0
        for s in range(n):
            for c in range(C):
                m = int(rcount[s, c])
                if m == 0:
                    continue
                d.wait(self._dptr + self._disp.signal(c, s), rnd)
                lo, hi = np.searchsorted(gg, [g0, g0 + m])
                d.scatter(recv_x, row[lo:hi], d.view(self._dblk, self._disp.recv_slot(c, s),
                                                      (m, H)), gg[lo:hi] - g0)
                g0 += m
        handle = _Handle(rnd, T, R, sent, rcount, rows_of, weight)
        return Dispatched(recv_x, d.out(src_pe), d.out(src_index), d.out(weight),
                          d.out(counts), handle)

    def combine(self, y, handle):
        """Sends the experts' outputs y (rows as dispatch gave them) back and sums them with
        their gate weights (collective); returns tokens x hidden in the original order."""
        np, d = self._np, self._data
        C, n, H, me = self.channels, self.n, self.hidden, self.me
        if not isinstance(handle, _Handle) or handle.round != self._rounds[0]:
            raise ValueError("symm.ep.Buffer.combine: the handle is not that of this buffer's "
                             "last dispatch")
        y = d.rows(y, handle.rows, H, "combine")
        self._rounds[1] += 1
        rnd = self._rounds[1]
        partial = d.weighted(y, handle.rows_of, handle.weight, H)
        first = np.concatenate([[0], np.cumsum(handle.rcount.ravel())])
        for i in range(1, n + 1):
            s = (me + i) % n
            for c in range(C):
                m = int(handle.rcount[s, c])
                if m == 0:
                    continue
                g0 = int(first[s * C + c])
                off = self._comb.send_slot(c, s)
                d.gather(d.view(self._dblk, off, (m, H)), partial, np.arange(g0, g0 + m))
                d.put_signal(self._dptr + self._comb.recv_slot(c, me), self._dptr + off,
                             m * H * d.esize, self._dptr + self._comb.signal(c, me), rnd, s)
        out = d.accumulate((handle.tokens, H))
        for c in range(C):
            for pe in range(n):
                tok = handle.sent[c][pe]
                if len(tok) == 0:
                    continue
                d.wait(self._dptr + self._comb.signal(c, pe), rnd)
                d.add(out, tok, d.view(self._dblk, self._comb.recv_slot(c, pe), (len(tok), H)))
        return d.result(out)
