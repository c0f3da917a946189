"""speckit: run a specification's conformance suite against an implementation, grade, and report."""

__version__ = "0.1.0"
