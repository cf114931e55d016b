#!/bin/bash
# Inno Setup 6 (ISCC.exe from the npm package "innosetup") under Wine on Debian/Ubuntu
# amd64 (root to apt-get Wine): sets the compiler up once (cached), then compiles
# installer.iss against a stand-in of the Linux-built bundle (build/out/loyalty-kiosk/).
#
#   build/iscc.sh setup                      set up only; prints the cached tools
#   build/iscc.sh [--version V] [ISCC opts]  set up, make the stand-in, compile
#                                            -> build/out/stand-in/loyalty-kiosk-setup-V.exe
#
# The stand-in (build/out/stand-in/loyalty-kiosk/) has the bundle's file list: every
# file of _internal/ as an empty file, and the two executables as tiny console programs
# that Wine ships, renamed: whoami.exe as loyalty-kiosk-cli.exe (it ignores Setup's
# "--shutdown --all-users --wait 30" and exits 0 at once, as the real one does after
# closing a running kiosk, so Setup takes its "close, install, start again" path) and
# hostname.exe as loyalty-kiosk.exe (the kiosk Setup starts again: prints, exits).
# The version comes from kiosk.__version__ (build/version_info.py), or --version V.
#
# Exit codes: 0 compiled, 1 no bundle, 2 compile failed, 3 warnings, and 77 when
# the compiler cannot be set up on this machine (no Wine and no root to install it, no
# i386 packages, no npm...): one line on stderr says why. Cache: $ISCC_HOME (default ~/.cache/iscc):
# ISCC, the Wine prefix (Windows 10) and the wrappers "iscc" and "wine-run".
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ISCC_HOME=${ISCC_HOME:-$HOME/.cache/iscc}
INNO_VERSION=${INNO_VERSION:-6.4.1}
ISCC_EXE=$ISCC_HOME/innosetup/package/bin/ISCC.exe
PREFIX=$ISCC_HOME/wineprefix
# No Mono/Gecko download prompt; no Linux menu entries for the shortcuts Setup makes.
OVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"

skip() { echo "iscc.sh: cannot set up Inno Setup under Wine: $*" >&2; exit 77; }
say() { echo "iscc.sh: $*" >&2; }

ready() {
  [ -f "$ISCC_HOME/ready" ] && [ "$(cat "$ISCC_HOME/ready")" = "$INNO_VERSION" ] \
    && [ -f "$ISCC_EXE" ] && [ -f "$PREFIX/system.reg" ] \
    && command -v wine >/dev/null && command -v wineserver >/dev/null \
    && command -v xvfb-run >/dev/null && dpkg -s wine32:i386 >/dev/null 2>&1
}

apt_step() {  # apt_step WHAT COMMAND...: 77 with apt's last error line when it fails
  local what=$1 out; shift
  if ! out=$("$@" 2>&1); then
    skip "$what failed: $(grep -E '^(E|W):' <<<"$out" | tail -n1 || tail -n1 <<<"$out")"
  fi
}

setup() {
  [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] || skip "needs Linux amd64, not $(uname -sm)"
  command -v npm >/dev/null || skip "no npm: ISCC.exe comes from the npm package innosetup"
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if ! command -v wine >/dev/null || ! command -v xvfb-run >/dev/null \
    || ! dpkg -s wine32:i386 >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || skip "Wine (with i386) is not installed and only root can apt-get it"
    command -v apt-get >/dev/null || skip "no Wine and no apt-get (Debian/Ubuntu only)"
    say "installing Wine (amd64 + i386) and Xvfb with apt-get"
    # 1. i386 packages. Debian's security suite has no consistent i386 index at times
    #    ("File has unexpected size ... Mirror sync in progress?"): it stays amd64 only.
    dpkg --add-architecture i386 || skip "dpkg --add-architecture i386 failed"
    local src=/etc/apt/sources.list.d/debian.sources
    if [ -f "$src" ] && grep -q '^Suites: .*-security$' "$src" \
      && ! grep -q '^Architectures: amd64' "$src"; then
      sed -i 's/^\(Suites: [a-z]*-security\)$/\1\nArchitectures: amd64/' "$src"
    fi
    apt_step "apt-get update" apt-get -o DPkg::Lock::Timeout=300 update
    local candidate
    candidate=$(apt-cache policy wine32:i386 | awk '/Candidate:/ {print $2}')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ] \
      || skip "no i386 package reachable (apt has no candidate for wine32:i386)"
    # 2. Wine (amd64 + i386) and Xvfb (to run a setup .exe; compiling needs no display).
    #    -t CODENAME: every library from the main suite, where amd64 and i386 versions
    #    match (Multi-Arch: same); the security suite's newer amd64-only ones would not.
    apt_step "apt-get install wine wine32:i386" env DEBIAN_FRONTEND=noninteractive \
      apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends \
      ${codename:+-t "$codename"} wine wine32:i386 wine64 xvfb xauth
  fi
  # 3. ISCC.exe and its files: the npm package's tarball, unpacked (no npm install).
  if [ ! -f "$ISCC_EXE" ]; then
    say "fetching innosetup@$INNO_VERSION with npm pack"
    rm -rf "$ISCC_HOME/innosetup" && mkdir -p "$ISCC_HOME/innosetup"
    (cd "$ISCC_HOME/innosetup" && npm pack --silent "innosetup@$INNO_VERSION" >/dev/null \
      && tar xzf "innosetup-$INNO_VERSION.tgz") || skip "npm pack innosetup@$INNO_VERSION failed"
    [ -f "$ISCC_EXE" ] || skip "innosetup@$INNO_VERSION has no bin/ISCC.exe"
  fi
  # 4. A prefix that reports Windows 10 (installer.iss: MinVersion=10.0).
  export WINEPREFIX=$PREFIX WINEDEBUG=-all WINEDLLOVERRIDES=$OVERRIDES
  if [ ! -f "$PREFIX/system.reg" ]; then
    say "creating the Wine prefix $PREFIX"
    rm -rf "$PREFIX"
    wineboot -i >/dev/null 2>&1 || skip "wineboot could not create a prefix"
    wine winecfg /v win10 >/dev/null 2>&1 || skip "winecfg /v win10 failed"
  fi
  # A wineserver started without a display must be gone before a Setup runs under Xvfb
  # ("Error reading FPreparingMemo.Lines.Strings"); this also flushes the registry.
  wineserver -w
  # 5. Wrappers (rewritten every time: cheap, and they follow this script).
  cat >"$ISCC_HOME/iscc" <<EOF
#!/bin/bash
# ISCC under Wine. The .iss as a relative path (a path starting with / is an ISCC option).
export WINEPREFIX="$PREFIX" WINEDEBUG=-all WINEDLLOVERRIDES="$OVERRIDES"
exec wine "$ISCC_EXE" "\$@"
EOF
  cat >"$ISCC_HOME/wine-run" <<EOF
#!/bin/bash
# Run a Windows program (a setup .exe) under a private Xvfb display, in \$WINEPREFIX
# (default: the compiler's prefix); waits until every Wine process of the prefix has
# ended. Exit code: the program's.
export WINEPREFIX="\${WINEPREFIX:-$PREFIX}" WINEDEBUG=-all WINEDLLOVERRIDES="$OVERRIDES"
wineserver -w
xvfb-run -a bash -c 'wine "\$@"; rc=\$?; wineserver -w; exit \$rc' wine-run "\$@"
EOF
  chmod +x "$ISCC_HOME/iscc" "$ISCC_HOME/wine-run"
  local banner  # ISCC /? prints its banner and exits 1
  banner=$("$ISCC_HOME/iscc" /? 2>/dev/null || true)
  grep -q 'Inno Setup 6' <<<"$banner" || skip "ISCC.exe does not start under Wine"
  wineserver -w
  echo "$INNO_VERSION" >"$ISCC_HOME/ready"
}

# The stand-in bundle: the real bundle's file list, empty files, stand-in executables.
stand_in() {
  local bundle=$ROOT/build/out/loyalty-kiosk out=$ROOT/build/out/stand-in/loyalty-kiosk
  [ -x "$bundle/loyalty-kiosk" ] && [ -x "$bundle/loyalty-kiosk-cli" ] \
    && [ -d "$bundle/_internal" ] \
    || { say "no Linux bundle in $bundle: run build/build_bundle.py first"; exit 1; }
  local gui=$PREFIX/drive_c/windows/system32/hostname.exe
  local cli=$PREFIX/drive_c/windows/system32/whoami.exe
  [ -f "$gui" ] && [ -f "$cli" ] || { say "no hostname.exe or whoami.exe in the Wine prefix"; exit 1; }
  rm -rf "$out" && mkdir -p "$out"
  (cd "$bundle/_internal" && find . -type d) | (cd "$out" && sed 's|^|_internal/|' | xargs -d '\n' mkdir -p)
  (cd "$bundle/_internal" && find . ! -type d) | (cd "$out/_internal" && xargs -d '\n' touch)
  cp "$gui" "$out/loyalty-kiosk.exe"
  cp "$cli" "$out/loyalty-kiosk-cli.exe"
}

mkdir -p "$ISCC_HOME"
exec 9>"$ISCC_HOME/.lock"
flock 9  # one setup at a time on this machine
ready || setup
flock -u 9
export WINEPREFIX=$PREFIX WINEDEBUG=-all WINEDLLOVERRIDES=$OVERRIDES
if [ "${1:-}" = setup ]; then
  echo "ok: $ISCC_HOME/iscc (compile), $ISCC_HOME/wine-run (run a setup .exe)"
  exit 0
fi

cd "$ROOT"
python=$ROOT/.venv/bin/python
[ -x "$python" ] || python=python3
version=$("$python" -c 'import sys; sys.path.insert(0, "build"); import version_info as v; print(v.package_version())')
if [ "${1:-}" = --version ]; then version=$2; shift 2; fi
file_version=$("$python" -c 'import sys; sys.path.insert(0, "build"); import version_info as v; print(v.dotted(sys.argv[1]))' "$version")
stand_in
# installer.iss takes its version and its source folder from these defines (without
# them: build/out/version.iss and build/out/loyalty-kiosk, as on Windows). A warning
# fails the compile (ISCC_ALLOW_WARNINGS=1 lets it pass); the whole output is kept.
log=build/out/stand-in/iscc-$version.log
if ! "$ISCC_HOME/iscc" "/DAppVersion=$version" "/DAppFileVersion=$file_version" \
  '/DBundle=build\out\stand-in\loyalty-kiosk' '/Obuild\out\stand-in' "$@" installer.iss \
  >"$log" 2>&1; then
  grep -v -E '^ *(Compressing|Parsing|Reading|Preprocessing|Creating|Updating|Compiler)' "$log" >&2
  say "compile failed (whole output: $log)"
  exit 2
fi
warnings=$(grep -E '^Warning' "$log" || true)
if [ -n "$warnings" ]; then
  echo "$warnings" >&2
  if [ "${ISCC_ALLOW_WARNINGS:-0}" != 1 ]; then
    say "installer.iss compiles with warnings (whole output: $log)"
    exit 3
  fi
fi
tr -d '\r' <"$log" | grep -E '^Successful compile' | sed 's/ Resulting Setup program filename is:$//'
echo "setup: build/out/stand-in/loyalty-kiosk-setup-$version.exe"
