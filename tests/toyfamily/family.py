"""Step 4: the toy family's declaration, module paths only (what a ``family.py`` in
a folder of ``src/pqkit`` holds; found there by looking, here registered by the
test with :func:`pqkit.families.register`)."""

from __future__ import annotations

from pqkit.families import Family, Part

FAMILY = Family(
    name="toykem",
    rank=95,
    catalog="toyfamily.params",
    contract="toyfamily.kernels.contract:ToyKernels",
    kernels={"ref": "toyfamily.kernels.ref", "numpy": "toyfamily.kernels.numpy"},
    # Its warm-up prepares numpy (it has no compiled backend): the automatic
    # selection switches the group to numpy once the step has run.
    warmup=(Part("toykem", "toykem", "toyfamily.kernels.warmup:steps", order=70, backend="numpy"),),
)
