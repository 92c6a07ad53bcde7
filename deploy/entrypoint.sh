#!/bin/sh
# The container's entry point (Dockerfile; docs/deploy.md): runs the command it is given, and
# to `kradan serve` adds the options the container's environment sets, so that a deployment
# changes its settings in its compose or env file rather than in the command:
#
#   KRADAN_DB             --db URL (the Dockerfile's command says /data/games.db, SQLite)
#   KRADAN_ALLOWED_HOSTS  --allowed-hosts NAME[,NAME...]: the names browsers reach the server by
#   KRADAN_ENGINES        --engines N: engine processes (the default counts the host's cores,
#                         not the container's share of them)
#   KRADAN_INTERNAL_URL   --internal-url URL: one of several processes on one PostgreSQL, reached
#                         by the others at URL (docs/scaling.md)
#
# Any other command (`kradan admin ...`, `sh`) runs as it is given.
set -eu

if [ "$#" -ge 2 ] && [ "$1" = kradan ] && [ "$2" = serve ]; then
    if [ -n "${KRADAN_DB:-}" ]; then
        set -- "$@" --db "$KRADAN_DB"
    fi
    if [ -n "${KRADAN_ALLOWED_HOSTS:-}" ]; then
        set -- "$@" --allowed-hosts "$KRADAN_ALLOWED_HOSTS"
    fi
    if [ -n "${KRADAN_ENGINES:-}" ]; then
        set -- "$@" --engines "$KRADAN_ENGINES"
    fi
    if [ -n "${KRADAN_INTERNAL_URL:-}" ]; then
        set -- "$@" --internal-url "$KRADAN_INTERNAL_URL"
    fi
fi
exec "$@"
