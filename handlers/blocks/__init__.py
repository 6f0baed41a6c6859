"""Block Kit builders: pure functions from read models to blocks. No Slack calls, no database."""
