"""Loaded at the start of a notebook kernel by `python -m tools.notebooks execute --perturb ULPS`
(the executor puts this folder on the kernel's PYTHONPATH and sets BOOK_PERTURB_ULPS). It does nothing
otherwise.

It makes the kernel behave like a machine whose float kernels round differently: the result of every
PyTorch operation whose last bits depend on the kernel (a reduction such as a matrix product, a sum or a
softmax, or a transcendental function such as exp) is moved by up to ULPS units in the last place. The
move is a fixed function of the result's bits (results that look exact, with 8 trailing zero bits, are left
alone; so are results on another device or not contiguous in memory), so the same computation still gives the same result within
one run (two equal calls stay equal, as on any real machine), while every output that shows digits at the
level of float rounding changes. A notebook that stores the same outputs with and without it shows
nothing that another CPU would round differently (CONTRIBUTING.md: "Outputs that hold on any machine")."""

import os

if os.environ.get("BOOK_PERTURB_ULPS"):
    import torch
    import torch.nn.functional as F
    from torch.overrides import TorchFunctionMode

    ULPS = float(os.environ["BOOK_PERTURB_ULPS"])
    T = torch.Tensor
    # operations whose results are not fixed by IEEE 754 alone: the order of a reduction, or the
    # approximation a vectorised exp/log/tanh uses, is the kernel's choice
    KERNEL_CHOSEN = {
        torch.matmul, T.__matmul__, T.__rmatmul__, T.matmul, torch.mm, T.mm, torch.bmm, T.bmm,
        torch.addmm, torch.baddbmm, torch.einsum, torch.tensordot, F.linear, torch.inner, torch.dot,
        torch.sum, T.sum, torch.mean, T.mean, torch.var, T.var, torch.std, T.std, torch.norm, T.norm,
        torch.linalg.norm, torch.linalg.vector_norm, torch.cumsum, T.cumsum, torch.prod, T.prod,
        torch.logsumexp, T.logsumexp, torch.softmax, T.softmax, F.softmax, torch.log_softmax,
        T.log_softmax, F.log_softmax, F.scaled_dot_product_attention, F.mse_loss, F.cross_entropy,
        F.layer_norm, F.gelu, torch.exp, T.exp, torch.log, T.log, torch.tanh, T.tanh, torch.sigmoid,
        T.sigmoid, torch.special.entr, torch.var_mean, torch.std_mean, F.multi_head_attention_forward,
    }
    WIDTH = {torch.float32: (torch.int32, 2.0 ** -23), torch.float64: (torch.int64, 2.0 ** -52)}
    # Work space allocated once, here, so that moving a result allocates nothing: chapter 7's memory
    # meters (a TorchFunctionMode, the profiler) must read what they read without it.
    CHUNK = 1 << 15
    _bits, _low = torch.empty(CHUNK, dtype=torch.int64), torch.empty(CHUNK, dtype=torch.int64)
    _exact = torch.empty(CHUNK, dtype=torch.bool)
    _factor = {dtype: torch.empty(CHUNK, dtype=dtype) for dtype in WIDTH}
    # the constants as tensors made here too: a Python number passed to an operation becomes a new
    # 0-d tensor, an allocation the profiler would count
    _int = {n: torch.tensor(n, dtype=torch.int64) for n in (0, 7, 0xFF, 0xFFFF, 2654435761)}
    _real = {dtype: {"one": torch.tensor(1, dtype=dtype), "half_range": torch.tensor(32768, dtype=dtype),
                     "ulps": torch.tensor(ULPS * WIDTH[dtype][1], dtype=dtype)} for dtype in WIDTH}

    def _move(t):
        if (not isinstance(t, torch.Tensor) or t.dtype not in WIDTH or t.device.type != "cpu"
                or t.numel() == 0 or not t.is_contiguous()):
            return t
        int_type = WIDTH[t.dtype][0]
        flat = t.data.view(-1)
        with torch.no_grad():
            for start in range(0, flat.numel(), CHUNK):
                part = flat[start:start + CHUNK]
                n = part.numel()
                bits, low, exact, factor = _bits[:n], _low[:n], _exact[:n], _factor[t.dtype][:n]
                r = _real[t.dtype]
                bits.copy_(part.view(int_type))
                # a result whose last 8 bits are 0 is left alone: it is most likely exact (2.0, 0.25,
                # a sum of zeros and one product), and an exact result is the same whatever the kernel
                low.copy_(bits).bitwise_and_(_int[0xFF])
                torch.eq(low, _int[0], out=exact)
                # a hash of the bits, in [-1, 1): multiplicative hashing, then 16 middle bits
                bits.mul_(_int[2654435761]).bitwise_right_shift_(_int[7]).bitwise_and_(_int[0xFFFF])
                factor.copy_(bits).div_(r["half_range"]).sub_(r["one"]).mul_(r["ulps"]).add_(r["one"])
                factor.masked_fill_(exact, r["one"])
                # in place, through .data: the result keeps its grad_fn (a printed tensor still says
                # grad_fn=<MmBackward0>) and autograd does not see a change
                part.mul_(factor)
        return t

    def _move_all(out):
        if isinstance(out, tuple):
            return type(out)(_move_all(o) for o in out) if not hasattr(out, "_fields") else type(out)(
                *(_move_all(o) for o in out))
        return _move(out)

    class _Perturb(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            __tracebackhide__ = True  # IPython leaves this frame out of the tracebacks a notebook shows
            out = func(*args, **(kwargs or {}))
            return _move_all(out) if func in KERNEL_CHOSEN else out

    _Perturb().__enter__()
