"""BoardADT (001): the kit's programs play_two and connect, the turtle board, the solver, --impl."""
