#!/usr/bin/env bash
# Installs code-server (a real VS Code served over HTTP) into a git-ignored cache folder for
# `npm run test:vscode`, and reuses it when already there. It is never one of the project's
# dependencies: it weighs hundreds of MB and builds native modules.
#
# 4.100.3 bundles VS Code 1.100.3 and runs its extension host on Node 20 (newer releases need
# Node 22+). Its install has three obstacles, each handled here:
#  - its postinstall refuses to run as root unless npm_config_unsafe_perm is set, and asks before
#    installing node-pty's helpers unless npm_config_yes is set;
#  - @vscode/ripgrep's postinstall downloads `rg` from GitHub: its download cache is seeded from the
#    system's ripgrep (Debian's `ripgrep` package), so nothing is fetched outside the npm registry;
#  - the kerberos native module needs the Kerberos headers (Debian's `libkrb5-dev`), and native
#    modules a compiler (make, g++, python3).
set -euo pipefail

VERSION=4.100.3
# @vscode/ripgrep as pinned by code-server 4.100.3, and the ripgrep release tag that version asks for.
RIPGREP_PACKAGE=1.15.11
RIPGREP_TAG=v13.0.0-10

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${MTHDS_CODE_SERVER_DIR:-$REPO/.cache/code-server}"
BIN="$DIR/node_modules/.bin/code-server"

installed_version() {
  node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch { }' "$DIR/node_modules/code-server/package.json"
}

if [ -x "$BIN" ] && [ "$(installed_version)" = "$VERSION" ]; then
  echo "code-server $VERSION: $BIN"
  exit 0
fi

RG="$(command -v rg || true)"
if [ -z "$RG" ]; then
  echo "install-code-server: ripgrep (rg) is required to seed @vscode/ripgrep (Debian: apt-get install ripgrep)" >&2
  exit 1
fi

mkdir -p "$DIR/tmp"
# A private temp folder: the ripgrep cache lives there, and npm's own temp files too.
export TMPDIR="$DIR/tmp"
SEED="$TMPDIR/vscode-ripgrep-cache-$RIPGREP_PACKAGE"
mkdir -p "$SEED"
tar czf "$SEED/ripgrep-$RIPGREP_TAG-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$RG")" rg

[ -f "$DIR/package.json" ] || echo '{ "private": true, "description": "code-server for npm run test:vscode (git-ignored cache)" }' > "$DIR/package.json"

# Its native modules are compiled against the running Node's headers: those installed beside it
# when there are (no download of headers), unless npm is told otherwise.
NODE_PREFIX="$(dirname "$(dirname "$(command -v node)")")"
if [ -z "$(npm config get nodedir 2>/dev/null | grep -v '^undefined$' || true)" ] && [ -f "$NODE_PREFIX/include/node/node_version.h" ]; then
  export npm_config_nodedir="$NODE_PREFIX"
fi

echo "installing code-server $VERSION into $DIR (a few minutes)..."
npm_config_unsafe_perm=true npm_config_yes=true \
  npm install --prefix "$DIR" --no-audit --no-fund --no-save "code-server@$VERSION"

if [ ! -x "$BIN" ] || [ "$(installed_version)" != "$VERSION" ]; then
  echo "install-code-server: code-server $VERSION did not install into $DIR" >&2
  exit 1
fi
echo "code-server $VERSION: $BIN"
