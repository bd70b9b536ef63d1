"""The authentication path both LMS (RFC 8554 §5.4.1 step 3) and XMSS (RFC 8391
Algorithm 11) read from the nodes a signer keeps: the levels at and above ``k`` of
the whole tree, and the levels below ``k`` of the one subtree of 2^k leaves that
holds the current leaf."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["auth_path"]


def auth_path(
    top: list[npt.NDArray[np.uint8]],
    bottom: list[npt.NDArray[np.uint8]],
    base: int,
    k: int,
    height: int,
    leaf: int,
) -> bytes:
    """The sibling of every node on the way from ``leaf`` to the root, leaves first:
    ``top[l - k]`` holds level l >= k whole, ``bottom[l]`` level l < k of the subtree
    whose first leaf is ``base``."""
    out = []
    for level in range(height):
        sibling = (leaf >> level) ^ 1
        if level < k:
            out.append(bottom[level][sibling - (base >> level)].tobytes())
        else:
            out.append(top[level - k][sibling].tobytes())
    return b"".join(out)
