#!/usr/bin/env bash
# Signs and sends one merchant API request (docs/api.md "Signing a request") with openssl and curl; see the README (Merchant API).
#
#   PAYNOTIFY_CLIENT_ID=merchant-a PAYNOTIFY_SECRET=... dev/api.sh METHOD TARGET [BODY_FILE|-] [IDEMPOTENCY_KEY]
#
#   dev/api.sh POST /api/v1/orders order.json "order-A1001-$(date +%s)"
#   echo -n '{"channel":"wx-dev","outTradeNo":"A1001","amount":100}' | dev/api.sh POST /api/v1/orders - key-1
#   dev/api.sh GET /api/v1/orders/wx-dev/A1001
#   dev/api.sh POST /api/v1/orders/wx-dev/A1001/close "" close-A1001-1
#
# TARGET is sent exactly as given (curl --path-as-is), so percent-encode it yourself: '|' is %7C.
# The body is signed and sent as the exact bytes of the file (no trailing newline is added or removed).
# Note: openssl takes the secret as an argument, so it is visible in the process list of this machine while
# the command runs; use this script on your own workstation, not on a shared host.
set -euo pipefail

method=${1:?usage: dev/api.sh METHOD TARGET [BODY_FILE|-] [IDEMPOTENCY_KEY]}
target=${2:?usage: dev/api.sh METHOD TARGET [BODY_FILE|-] [IDEMPOTENCY_KEY]}
body_file=${3:-}
key=${4:-}
base=${PAYNOTIFY_URL:-http://localhost:8080}
client=${PAYNOTIFY_CLIENT_ID:?set PAYNOTIFY_CLIENT_ID}
secret=${PAYNOTIFY_SECRET:?set PAYNOTIFY_SECRET}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if [[ "$body_file" == "-" ]]; then
    cat >"$tmp"
elif [[ -n "$body_file" ]]; then
    cat -- "$body_file" >"$tmp"
fi

ts=$(date +%s)
# METHOD \n TARGET \n TIMESTAMP \n IDEMPOTENCY_KEY \n BODY   (an absent key is the empty string)
signature=$({ printf '%s\n%s\n%s\n%s\n' "$method" "$target" "$ts" "$key"; cat "$tmp"; } \
    | openssl dgst -sha256 -hmac "$secret" -r | cut -d' ' -f1)

args=(-sS -i --path-as-is -X "$method"
    -H "X-Client-Id: $client" -H "X-Timestamp: $ts" -H "X-Signature: $signature")
if [[ -n "$key" ]]; then
    args+=(-H "Idempotency-Key: $key")
fi
if [[ -s "$tmp" ]]; then
    args+=(-H "Content-Type: application/json" --data-binary "@$tmp")
fi
curl "${args[@]}" "$base$target"
echo
