"""The toy family's ``numpy`` backend: vectorised."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def mask(data: Any, pad: Any) -> npt.NDArray[np.uint8]:
    return np.bitwise_xor(np.asarray(data, dtype=np.uint8), np.asarray(pad, dtype=np.uint8))


KERNELS = {"mask": mask}
