"""X+ (004): the program xplus and what it tells a player."""
