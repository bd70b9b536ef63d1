"""The toy family's ``ref`` backend: plain Python ints (the oracle)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def mask(data: Any, pad: Any) -> npt.NDArray[np.uint8]:
    a = np.asarray(data, dtype=np.uint8)
    b = np.asarray(pad, dtype=np.uint8)
    out = [x ^ y for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist(), strict=True)]
    return np.array(out, dtype=np.uint8).reshape(a.shape)


KERNELS = {"mask": mask}
