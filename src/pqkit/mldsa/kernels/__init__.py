"""ML-DSA's kernels: its contract and its arithmetic backends (see ``family.py``)."""
