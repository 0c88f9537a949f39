#!/bin/sh
# Polls a track until it is completed and prints it (its audio links included);
# exits 1 if it failed. Usage: poll-track.sh <track id>
# Needs TUNESMITH_URL and TUNESMITH_API_KEY (a key with the read scope); uses curl and jq.
set -eu
id="$1"

# Every 2 seconds for at most 10 minutes: well within a key's 60 requests a minute.
attempt=0
while [ "$attempt" -lt 300 ]; do
  track=$(curl --silent --show-error --fail-with-body \
    "$TUNESMITH_URL/api/v1/tracks/$id" \
    --header "Authorization: Bearer $TUNESMITH_API_KEY")
  case "$(printf '%s' "$track" | jq -r .status)" in
    completed) printf '%s\n' "$track"; exit 0 ;;
    failed) printf '%s\n' "$track" >&2; exit 1 ;;
  esac
  attempt=$((attempt + 1))
  sleep 2
done
echo "Track $id is not finished after 10 minutes" >&2
exit 1
