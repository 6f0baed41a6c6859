#!/bin/sh
# recount-bot at the console as its services run it: with their settings and in their directory.
# Install as /usr/local/bin/recount-bot and run it as the service user: sudo -u recount recount-bot doctor
set -a
. /etc/recount-bot/recount-bot.env
set +a
cd /var/lib/recount-bot || exit 1
exec /opt/recount-bot/.venv/bin/recount-bot "$@"
