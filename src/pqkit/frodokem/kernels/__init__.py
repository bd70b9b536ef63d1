"""FrodoKEM's kernels: contract, ref / numpy / jit tables, warm-up."""
