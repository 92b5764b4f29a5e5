"""Ember: a C++20 runtime for programs compiled by IREE 3.11.

``import ember.runtime as rt`` offers the API of ``iree.runtime``.
"""

__version__ = "0.1.0"
