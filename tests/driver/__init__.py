"""Tests of the reference's game and text driver: scripted games, and sessions in a real terminal."""
