"""Exit statuses of the ``pqkit`` command, the same for every subcommand."""

from __future__ import annotations

__all__ = ["EPILOG", "FAILURE", "OK", "USAGE", "Failure"]

OK = 0
"""Success (a valid signature for ``verify``)."""
FAILURE = 1
"""A check failed: an invalid signature, a wrong password (a decryption failure),
a round trip that disagreed."""
USAGE = 2
"""A usage error or an input that cannot be used: bad arguments, a missing,
unreadable, oversized or malformed file, a key of the wrong type; or a feature
whose optional extra is not installed (:class:`pqkit.MissingExtra`)."""

EPILOG = """\
exit status:
  0  success
  1  failed verification or decryption (invalid signature, wrong password)
  2  usage error or unusable input (bad arguments; a missing, unreadable,
     non-regular, oversized or malformed file; a key of the wrong type), or
     an optional extra that is not installed (pip install "pqkit[EXTRA]")"""


class Failure(Exception):
    """A check that failed (exit status 1), as opposed to a usage error (2)."""
