"""Connect Four 2015 (003): the terminal program, the window, and the reference's private methods."""
