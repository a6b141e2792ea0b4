"""facility — readiness checks for liquid-cooled AI supernode halls."""

__version__ = "0.1.0"
