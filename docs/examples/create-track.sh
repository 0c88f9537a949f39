#!/bin/sh
# Starts a song and prints {"id": ..., "status": ...}.
# Needs TUNESMITH_URL (the site, e.g. https://tunesmith.example) and
# TUNESMITH_API_KEY (a key with the generate scope); uses curl.
set -eu

# Send the same Idempotency-Key when you retry this request: it never makes a second song.
idempotency_key="${IDEMPOTENCY_KEY:-create-$(date +%s)-$$}"

curl --silent --show-error --fail-with-body \
  --request POST "$TUNESMITH_URL/api/v1/tracks" \
  --header "Authorization: Bearer $TUNESMITH_API_KEY" \
  --header "Content-Type: application/json" \
  --header "Idempotency-Key: $idempotency_key" \
  --data '{"tags": "lo-fi hip hop, mellow piano, vinyl crackle", "duration": 30, "instrumental": true}'
echo
