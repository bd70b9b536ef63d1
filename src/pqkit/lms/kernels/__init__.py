"""LMS's compiled operations (``jit``): :mod:`.jit_ops`."""
