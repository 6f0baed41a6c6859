"""`recount-bot doctor`: an install checked end to end, one finding per check, each saying what to fix.

The checks run in order (bot/doctor/run.py); a check whose ground is missing (no database, a token Slack
refused) is reported as skipped, naming what it waits for, never as passing.
"""
