"""The implementation's shape: every documented operation exists and accepts its documented forms.

The test is :mod:`speckit.testing.structure`'s, collected here.
"""

from speckit.testing.structure import test_operation_exists_with_its_documented_parameters  # noqa: F401 - collected here
