"""Benchmarks for recount-bot: `python -m benchmarks [NAME [ARGS...]]` (or `python3 dev.py bench`).

Each benchmark is a module with `main(argv) -> int`, registered by name in `benchmarks.__main__`.
See benchmarks/README.md for what each measures and its baseline.
"""
