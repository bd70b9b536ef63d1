"""XMSS / XMSS^MT scheme objects (RFC 8391 Algorithms 10-17, SP 800-208 §5):
keygen, signing through a :class:`~pqkit.stateful.key.StatefulPrivateKey`,
verification. Signing is deterministic given the key and index (r = PRF(SK_PRF,
toByte(idx, 32)), §4.1.9), as in the reference implementation."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, cast

from pqkit.registry import Algorithm, algorithm
from pqkit.stateful.files import OID_XMSS, OID_XMSSMT
from pqkit.stateful.scheme import StatefulScheme
from pqkit.xmss import core
from pqkit.xmss.params import PARAMS, XmssParams

__all__ = ["SCHEMES", "XmssEngine", "XmssScheme"]


class XmssEngine:
    """Signs with given indices for one key: SK_SEED, SK_PRF, root, PUB_SEED."""

    def __init__(self, params: XmssParams, material: bytes, kernels: object | None) -> None:
        n = params.n
        self.params = params
        self.sk_seed, self.sk_prf = material[:n], material[n : 2 * n]
        self.root, self.pub_seed = material[2 * n : 3 * n], material[3 * n :]
        self.x = core.Xmss(params, self.pub_seed, kernels)
        self._trees: dict[int, core.XmssTree] = {}  # layer -> its current tree

    def public_key(self) -> bytes:
        """OID || root || SEED (RFC 8391 Appendix B / C)."""
        return struct.pack(">I", self.params.oid) + self.root + self.pub_seed

    def _tree(self, layer: int, tree: int) -> core.XmssTree:
        found = self._trees.get(layer)
        if found is None or found.tree != tree:
            found = core.XmssTree(self.x, self.sk_seed, layer, tree)
            self._trees[layer] = found
        return found

    def sign(self, index: int, message: bytes, rng: Callable[[int], bytes] | None = None) -> bytes:
        """Algorithm 12 / 16 with index ``index`` (``rng`` unused: deterministic)."""
        p, n = self.params, self.params.n
        r = self.x.prf_bytes(self.sk_prf, index.to_bytes(32, "big"))
        node = self.x.h_msg(r + self.root + index.to_bytes(n, "big"), message)
        parts = [index.to_bytes(p.index_bytes, "big"), r]
        idx, th = index, p.tree_height
        for layer in range(p.d):
            leaf, tree = idx & ((1 << th) - 1), idx >> th
            t = self._tree(layer, tree)
            parts.append(t.sign(leaf, node))
            node = t.root()
            idx = tree
        return b"".join(parts)


class XmssScheme(StatefulScheme):
    """One XMSS or XMSS^MT parameter set."""

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(XmssParams, algorithm.params)
        self.SPKI_OID = OID_XMSSMT if self.params.mt else OID_XMSS

    def _material(self, seed: bytes) -> bytes:
        """SK_SEED || SK_PRF || root || PUB_SEED from SK_SEED || SK_PRF || PUB_SEED
        (Algorithms 10 / 15 with the seeds given: the top tree's root)."""
        p, n = self.params, self.params.n
        sk_seed, sk_prf, pub_seed = seed[:n], seed[n : 2 * n], seed[2 * n :]
        x = core.Xmss(p, pub_seed, self._kernels())
        root = core.XmssTree(x, sk_seed, p.d - 1, 0).root()
        return sk_seed + sk_prf + root + pub_seed

    def _engine(self, material: bytes) -> XmssEngine:
        return XmssEngine(self.params, material, self._kernels())

    def _verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        return core.verify(self.params, public_key, message, signature, self._kernels())


def _schemes() -> dict[str, Any]:
    return {name: XmssScheme(algorithm(name)) for name in PARAMS}


SCHEMES: dict[str, Any] = _schemes()
