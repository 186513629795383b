#!/usr/bin/env sh
# Before `npm test`: the browser tests drive Debian's Chromium (never a downloaded browser). Installs it when it is
# missing and this is a Debian machine run as root (a fresh development VM or CI); otherwise says how, and the
# browser tests then fail with the same advice.
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM not found; installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium && exit 0
fi
echo "ensure-chromium: $CHROMIUM not found; the browser tests need it: sudo apt-get install chromium (or set CHROMIUM_PATH)" >&2
exit 0
