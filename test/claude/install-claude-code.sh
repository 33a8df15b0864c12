#!/usr/bin/env bash
# Installs Claude Code (the `claude` command) from the npm registry into a git-ignored cache folder
# for `npm run test:claude`, and reuses it when already there. It is never one of the project's
# dependencies. Its package carries a native binary per platform as optional dependencies; the
# postinstall script puts the one of this platform in place of bin/claude.exe.
set -euo pipefail

VERSION="${MTHDS_CLAUDE_CODE_VERSION:-2.1.332}"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${MTHDS_CLAUDE_CODE_DIR:-$REPO/.cache/claude-code}"
BIN="$DIR/node_modules/.bin/claude"

installed_version() {
  node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch { }' "$DIR/node_modules/@anthropic-ai/claude-code/package.json"
}

# Nothing of the install or the test reports anything anywhere.
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1

if [ -x "$BIN" ] && [ "$(installed_version)" = "$VERSION" ] && "$BIN" --version >/dev/null 2>&1; then
  echo "claude-code $VERSION: $BIN"
  exit 0
fi

mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{ "private": true, "description": "Claude Code for npm run test:claude (git-ignored cache)" }' > "$DIR/package.json"
echo "installing @anthropic-ai/claude-code $VERSION into $DIR..."
npm_config_yes=true npm install --prefix "$DIR" --no-audit --no-fund --no-save --foreground-scripts "@anthropic-ai/claude-code@$VERSION"
# Where npm was told not to run install scripts, the package's own postinstall is run here.
if ! "$BIN" --version >/dev/null 2>&1; then
  (cd "$DIR/node_modules/@anthropic-ai/claude-code" && node install.cjs 2>/dev/null || npm run postinstall --if-present)
fi
if ! "$BIN" --version >/dev/null 2>&1; then
  echo "install-claude-code: $BIN does not run after the install" >&2
  exit 1
fi
echo "claude-code $("$BIN" --version): $BIN"
