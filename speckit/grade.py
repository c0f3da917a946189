"""The former home of ``speckit grade``, kept so that old imports work: see :mod:`speckit.grading`."""

from .grading import *  # noqa: F401,F403
from .grading import __all__  # noqa: F401
