"""The commands of ``facility``, one module per group; :mod:`facility.cli` registers them."""
