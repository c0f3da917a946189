"""The implementation's shape: every documented operation exists and accepts its documented forms (:mod:`speckit.structure`)."""

from speckit.structure import test_operation_exists_with_its_documented_parameters  # noqa: F401 - collected here
