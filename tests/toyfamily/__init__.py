"""A toy KEM family that lives outside the package: the proof that a family moves
in by adding its own folder (docs/architecture.md, "Adding a family"; issue 27).

NOT a cipher: its "encryption" is a pad anyone can compute from the public key. It
exists only to exercise the registration path; tests/test_toy_family.py registers
it and runs it through the public API, the batch views and the command line.

Laid out like a family folder of ``src/pqkit`` (step numbers from
docs/architecture.md, "Adding a family"):

1. :mod:`.params`: the parameter set and ``CATALOG``;
2. :mod:`.kernels.contract`: the kernel contract; :mod:`.kernels.ref` and
   :mod:`.kernels.numpy`: its backends; :mod:`.kernels.warmup`: its warm-up step;
3. :mod:`.scheme`: the scheme object on :class:`pqkit.schemes.KemBase`;
4. :mod:`.family`: the declaration, module paths only.
"""
