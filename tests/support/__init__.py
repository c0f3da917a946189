"""Harnesses the tests of the kit's programs share: driving a program, a virtual X display.

:mod:`.programs` runs a program of the checkout on scripted answers or in a pseudo-terminal,
:mod:`.signals` lets such a program take Ctrl-C, :mod:`.xvfb` opens a virtual display for the
windows and reads the photographs taken of it.
"""
