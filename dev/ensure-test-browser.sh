#!/bin/sh
# Called by `make test`. The browser tests drive Debian's Chromium at /usr/bin/chromium (never a downloaded
# browser), and need a colour emoji font: without one ✅ and ❌ render as empty boxes. Cheap when both are there;
# as root it installs what is missing with apt-get, otherwise it stops with the one command to run.
set -eu

missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
if [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] && ! (fc-list 2>/dev/null | grep -q "Noto Color Emoji"); then
  missing="${missing:+$missing }fonts-noto-color-emoji"
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "make test: installing $missing for the browser tests (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
else
  echo "make test: the browser tests need $missing. Install it, then run make test again:" >&2
  echo "  sudo apt-get install -y --no-install-recommends $missing" >&2
  exit 1
fi
