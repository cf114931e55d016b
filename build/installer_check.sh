#!/bin/bash
# The installer check of .ci/run (Linux): compile installer.iss with Inno Setup under
# Wine against the stand-in bundle (build/iscc.sh), this version and the next, then
# install, upgrade, refuse bad parameters and uninstall in a throw-away Wine prefix,
# checking each step (build/installer_check.py).
#
#   build/installer_check.sh      (after build/build_bundle.py)
#
# Exit codes: 0 every step passed; 1 a step failed (or the compile did); 77 the compiler
# cannot be set up on this machine, after the line "installer check SKIPPED: <why>".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ISCC_HOME=${ISCC_HOME:-$HOME/.cache/iscc}
export ISCC_HOME
python=$ROOT/.venv/bin/python
[ -x "$python" ] || python=python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

started=$(date +%s)
bash build/iscc.sh setup 2> >(tee "$work/setup.err" >&2)
status=$?
if [ "$status" -eq 77 ]; then
  echo "installer check SKIPPED: $(sed -n 's/^iscc.sh: cannot set up Inno Setup under Wine: //p' "$work/setup.err" | tail -n1)"
  exit 77
elif [ "$status" -ne 0 ]; then
  echo "installer check: build/iscc.sh setup failed (exit $status)"
  exit 1
fi
echo "compiler ready in $(( $(date +%s) - started )) s"

version=$("$python" -c 'import sys; sys.path.insert(0, "build"); import version_info as v; print(v.package_version())')
# The "next version": the same script and bundle with a fourth version number, to try
# an upgrade from one version to another (a fleet's roll-out) as well as a reinstall.
next=$("$python" -c 'import sys; sys.path.insert(0, "build"); import version_info as v; n = v.file_version(sys.argv[1]); print(".".join(map(str, (*n[:3], n[3] + 1))))' "$version")
for v in "$version" "$next"; do
  if ! bash build/iscc.sh --version "$v" >"$work/iscc-$v.log" 2>&1; then
    cat "$work/iscc-$v.log"
    echo "installer check: installer.iss did not compile cleanly (version $v)"
    exit 1
  fi
  grep -E '^(Successful compile|setup:)' "$work/iscc-$v.log"
done

# A fresh prefix for every run: a copy of the compiler's (Windows 10, nothing installed).
cp -a "$ISCC_HOME/wineprefix" "$work/prefix"
"$python" build/installer_check.py --wine-prefix "$work/prefix" --wine-run "$ISCC_HOME/wine-run" \
  --bundle build/out/stand-in/loyalty-kiosk \
  --setup "build/out/stand-in/loyalty-kiosk-setup-$version.exe" \
  --next-setup "build/out/stand-in/loyalty-kiosk-setup-$next.exe"
status=$?
WINEPREFIX="$work/prefix" wineserver -k 2>/dev/null
echo "installer check: $(( $(date +%s) - started )) s in all"
exit "$status"
