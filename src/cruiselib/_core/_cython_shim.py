"""Stand-in for the ``cython`` module when Cython is not installed.

The core modules are written in Cython's pure-Python mode. Compiled, ``cython.compiled``
is a compile-time ``True``; run as plain Python without Cython installed, this module
provides the one name they use.
"""

compiled = False
