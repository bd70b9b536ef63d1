"""Speed tools in the liboqs format: ``pqkit speed kem | sig | common | kernels |
compare``, also ``python -m pqkit.bench ...``.

- :mod:`pqkit.bench.timing`: the one timing loop (two clocks, Welford, percentiles);
- :mod:`pqkit.bench.config`: the "Configuration info" block;
- :mod:`pqkit.bench.suites` and :mod:`pqkit.bench.kernels`: what each subcommand times;
- :mod:`pqkit.bench.runner`, :mod:`pqkit.bench.report`, :mod:`pqkit.bench.compare`:
  running, printing and comparing;
- :mod:`pqkit.bench.cli`: the command line.

Which schemes ``pqkit speed kem`` / ``sig`` find is the registry's business: any
scheme object in ``pqkit.mlkem.SCHEMES`` / ``pqkit.mldsa.SCHEMES`` is timed.
"""
