"""The native classes and functions, by the module name iree.runtime gives
them (``iree.runtime._binding``): everything of ``ember._ember``, the
driver cache's functions (create_hal_driver, get_cached_hal_driver,
clear_hal_driver_cache, from system_setup), and the tokenizer classes,
which iree.runtime's native module holds and Ember does not implement yet
(``ember.runtime.tokenizer``)."""

from ember import _ember as _native
from ember._ember import *  # noqa: F401,F403

# iree.runtime 3.13's native module also holds the driver cache that
# system_setup.get_driver uses; Ember keeps it in system_setup (one cache,
# whichever name reaches it). Its native get_driver, unlike these, is Ember's
# own uncached spelling of create_hal_driver.
from .system_setup import (  # noqa: F401
    clear_hal_driver_cache,
    create_hal_driver,
    get_cached_hal_driver,
)
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
