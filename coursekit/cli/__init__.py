"""The command line: parsing (main), the commands, preflight, the --watch loop, clean."""
