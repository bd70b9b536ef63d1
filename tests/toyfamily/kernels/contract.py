"""The toy family's kernel contract: one kernel."""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt


class ToyKernels(Protocol):
    def mask(
        self, data: npt.NDArray[np.uint8], pad: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.uint8]:
        """data XOR pad, (..., n) uint8 each -> a new (..., n) uint8 array."""
        ...
