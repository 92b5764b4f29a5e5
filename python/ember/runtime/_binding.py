"""The native classes and functions, by the module name iree.runtime gives
them (``iree.runtime._binding``): everything of ``ember._ember``, and the
tokenizer classes, which iree.runtime's native module holds and Ember does
not implement yet (``ember.runtime.tokenizer``)."""

from ember import _ember as _native
from ember._ember import *  # noqa: F401,F403

from .tokenizer import (  # noqa: F401
    Tokenizer,
    TokenizerDecodeStream,
    TokenizerEncodeStream,
)

# The star import leaves out names with a leading underscore; code that
# reaches into _binding for them (as iree.runtime's own modules do) finds
# them too.
globals().update({name: value for name, value in vars(_native).items()
                  if name.startswith("_") and not name.startswith("__")})
del _native
