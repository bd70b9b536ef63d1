"""Streamlined NTRU Prime's arithmetic kernels: contract, ref, numpy, jit, warm-up."""
