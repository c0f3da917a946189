"""Tests of the kit's own programs and of the references' private parts, one folder a specification.

Each folder is declared in its specification's ``[kit] other_tests``: these tests run on the
reference, are not conformance tests of a student's package, and are not shipped to students.
"""
