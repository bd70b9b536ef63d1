"""Step 2: the toy family's kernels: contract, ref, numpy, warm-up."""
