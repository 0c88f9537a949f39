#!/bin/sh
# Uploads an audio file and starts a restyle of it; prints {"id": ..., "status": ...}.
# Usage: restyle-upload.sh <file.mp3|.wav|.m4a|.ogg> "<tags>"
# Needs TUNESMITH_URL and TUNESMITH_API_KEY (a key with the generate scope); uses curl and jq.
set -eu
file="$1"
tags="$2"

case "$file" in
  *.wav) type=audio/wav ;;
  *.m4a) type=audio/mp4 ;;
  *.ogg) type=audio/ogg ;;
  *) type=audio/mpeg ;;
esac
size=$(wc -c < "$file" | tr -d ' ')

# 1. Reserve the upload: where to PUT the file, and the inputAudio value that names it.
upload=$(jq -n --arg filename "$(basename "$file")" --arg type "$type" --argjson size "$size" \
    '{filename: $filename, type: $type, size: $size}' |
  curl --silent --show-error --fail-with-body \
    --request POST "$TUNESMITH_URL/api/v1/uploads" \
    --header "Authorization: Bearer $TUNESMITH_API_KEY" \
    --header "Content-Type: application/json" \
    --header "Idempotency-Key: upload-$(date +%s)-$$" \
    --data @-)

# 2. Upload the file itself, with the headers the answer names.
set --
for header in $(printf '%s' "$upload" | jq -r '.headers | to_entries[] | "\(.key):\(.value)"'); do
  set -- "$@" --header "$header"
done
curl --silent --show-error --fail-with-body \
  --request PUT "$(printf '%s' "$upload" | jq -r .uploadUrl)" "$@" \
  --upload-file "$file" > /dev/null

# 3. Restyle it.
jq -n --arg tags "$tags" --arg inputAudio "$(printf '%s' "$upload" | jq -r .inputAudio)" \
    '{tags: $tags, inputAudio: $inputAudio}' |
  curl --silent --show-error --fail-with-body \
    --request POST "$TUNESMITH_URL/api/v1/tracks" \
    --header "Authorization: Bearer $TUNESMITH_API_KEY" \
    --header "Content-Type: application/json" \
    --header "Idempotency-Key: restyle-$(date +%s)-$$" \
    --data @-
echo
