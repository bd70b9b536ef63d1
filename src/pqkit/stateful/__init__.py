"""What the stateful hash-based signatures (LMS / HSS, XMSS / XMSS^MT) share.

- :mod:`.hashing`: one hash over many equal-length rows, on the batched SHA-2 /
  SHAKE kernels of :mod:`pqkit.common.kernels` (and its readable reference);
- :mod:`.storage`: where a key's next unused index lives (a file by default, an
  interface for others), reserved durably before any signature is returned;
- :mod:`.key`: the stateful private key object bound to a storage;
- :mod:`.files`: the key file format and the RFC 9802 public keys.
"""
