"""Command-line sub-commands, one module each; each offers `register(subparsers)`."""
