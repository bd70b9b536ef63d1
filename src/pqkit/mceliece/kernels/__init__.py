"""Classic McEliece's kernels: the contract, the ``ref`` oracle, ``numpy`` and ``jit``."""
