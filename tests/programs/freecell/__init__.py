"""Freecell (002): the console game, the numbered deals and the solver."""
