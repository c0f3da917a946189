"""Every suite under tests/ runs with the speckit plugin (``--impl``, ``--profile``)."""

pytest_plugins = ["speckit.pytest_plugin"]
