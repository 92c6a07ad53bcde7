"""The ``kradan`` command: one entry point with subcommands."""
