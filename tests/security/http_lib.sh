# Helpers for the HTTP attack tests (sourced after tests/integration/lib.sh):
# a lone name server on loopback, optionally with admin tokens, and curl
# wrappers that print what an attacker would see.

ADMIN_TOKEN=admin-token-for-http-tests-0123456789
READER_TOKEN=reader-token-for-http-tests-0123456789

# write_tokens FILE: an --admin-tokens file for ADMIN_TOKEN and READER_TOKEN.
write_tokens() {
  {
    echo "admin $(printf %s "$ADMIN_TOKEN" | sha256sum | cut -d' ' -f1) admin"
    echo "reader $(printf %s "$READER_TOKEN" | sha256sum | cut -d' ' -f1) reader"
  } > "$1"
}

# start_nameserver NAME ARGS...: a name server whose HTTP port is in $PORT
# (and $WORK/NAME.http-port); ARGS go to it (--admin-tokens, --http-host,
# --http-tls-*); $HTTP_LISTEN replaces the loopback listen address.
start_nameserver() {
  local name=$1 i
  shift
  rm -f "$WORK/$name.port" "$WORK/$name.http-port"
  "$BIN/nameserver" --listen 127.0.0.1:0 --port-file "$WORK/$name.port" --http-listen "${HTTP_LISTEN:-127.0.0.1:0}" \
    --http-port-file "$WORK/$name.http-port" "$@" > "$WORK/$name.log" 2>&1 &
  _bg_pids+=($!)
  for i in $(seq 1 200); do
    [ -s "$WORK/$name.port" ] && [ -s "$WORK/$name.http-port" ] && break
    kill -0 "${_bg_pids[-1]}" 2>/dev/null || fail "$name exited: $(tail -n 5 "$WORK/$name.log")"
    sleep 0.05
  done
  [ -s "$WORK/$name.port" ] || fail "$name did not start"
  PORT=$(tr -d '[:space:]' < "$WORK/$name.http-port")
}

# code ARGS...: the HTTP status curl sees (headers in $WORK/h, body in $WORK/b).
code() {
  curl -sS --noproxy '*' -m 10 -o "$WORK/b" -D "$WORK/h" -w '%{http_code}' "$@"
}

# header NAME: that response header of the last `code` call ("" when absent).
header() {
  grep -i "^$1:" "$WORK/h" | head -n 1 | cut -d: -f2- | sed 's/^ //' | tr -d '\r'
}

# expect WHAT WANT GOT
expect() {
  [ "$2" = "$3" ] || fail "$1: expected $2, got $3 (body: $(head -c 300 "$WORK/b" 2>/dev/null))"
}
