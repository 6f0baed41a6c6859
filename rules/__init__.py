"""The statute core: C.R.S. 1-13.5-1306 as pure, cited, tested code.

Nothing here performs I/O against a database or Slack, and nothing here imports `storage`, `bot`,
`handlers`, `slack_bolt`, `slack_sdk` or `sqlalchemy`; `tests/test_layering.py` enforces it.
Every rule returns a decision value that carries its outcome, the numbers it used, the statute
subsection it applied and a one-line reason a clerk can read aloud.
"""
