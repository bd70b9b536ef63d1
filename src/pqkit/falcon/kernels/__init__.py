"""Falcon's arithmetic kernels: the contract, the ``ref`` / ``numpy`` / ``jit`` tables."""
