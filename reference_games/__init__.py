"""Reference implementations of the other game specifications."""
