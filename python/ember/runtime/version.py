"""Version of the runtime package (``iree.runtime.version`` in upstream).

``VERSION`` is Ember's own version; ``IREE_VERSION`` is the IREE release
whose module format and Python API Ember follows (modules from
``iree-base-compiler`` of that version run on it). ``REVISIONS`` maps
component names to source revisions, as upstream's does; Ember's build does
not record them, so it is empty.
"""

from ember import __version__ as VERSION  # noqa: N811

IREE_VERSION = "3.11.0"
PACKAGE_SUFFIX = ""
REVISIONS: dict = {}

__all__ = ["IREE_VERSION", "PACKAGE_SUFFIX", "REVISIONS", "VERSION"]
