"""SLH-DSA's compiled engine (:mod:`.jit_ops`) and its warm-up (see ``family.py``)."""
