"""HQC's kernels: the contract (:mod:`.contract`), the ``ref``, ``numpy`` and ``jit``
backends, and the constant tables (:mod:`.tables`)."""
