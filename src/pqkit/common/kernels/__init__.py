"""The batched hash kernels of the symmetric layer: n-way Keccak-f[1600] / SHAKE and
SHA-256 / SHA-512 over many equal-length inputs, behind one contract
(:mod:`.contract`) with a ``ref``, a ``numpy`` and a ``jit`` backend, selected
through :func:`pqkit.arith.kernels` (``kernels("hash")``)."""
