"""Connect-4 (000): the reference's game and text driver: scripted games, sessions in a real terminal, --impl."""
