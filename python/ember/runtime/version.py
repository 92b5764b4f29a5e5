"""Version of the runtime package (``iree.runtime.version`` in upstream).

``VERSION`` is Ember's own version; ``IREE_VERSION`` is the IREE release
whose Python API Ember follows (``iree-base-runtime`` 3.13; where 3.11's
names differ, 3.11 code keeps working). ``REVISIONS`` maps
component names to source revisions, as upstream's does; Ember's build does
not record them, so it is empty.
"""

from ember import __version__ as VERSION  # noqa: N811

IREE_VERSION = "3.13.0"
PACKAGE_SUFFIX = ""
REVISIONS: dict = {}

__all__ = ["IREE_VERSION", "PACKAGE_SUFFIX", "REVISIONS", "VERSION"]
