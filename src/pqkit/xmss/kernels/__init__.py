"""XMSS's compiled operations (``jit``): :mod:`.jit_ops`."""
