# Shared set-up for the scripts: install the Debian packages a fresh machine lacks, and find
# the real saved pages (../shared/fixtures/real) when they sit beside the clone.
# Source it from bash; it changes to the package root.

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

statline_ensure_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]} == 0)) && return 0
  echo "installing ${missing[*]} (apt-get)" >&2
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
}

statline_ensure_toolchain() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "swift is not on PATH: install the Swift 6 toolchain (swift.org) first" >&2
    exit 69
  fi
  statline_ensure_packages pkg-config libxml2-dev libsqlite3-dev zlib1g-dev
}

# The independent APNs/FCM fake (../shared/tools/pushfake, Python): a venv with its pinned
# requirements from PyPI (.build/pushfake-venv, or $STATLINE_PUSHFAKE_VENV), exported as
# STATLINE_PUSHFAKE (the script) and STATLINE_PUSHFAKE_PYTHON. Without the folder, or when the
# venv cannot be made, the oracle tests are skipped with a note (and fail in CI).
statline_find_pushfake() {
  local folder=../shared/tools/pushfake
  [[ -n ${STATLINE_PUSHFAKE:-} || ! -f $folder/pushfake.py ]] && return 0
  local venv=${STATLINE_PUSHFAKE_VENV:-$PWD/.build/pushfake-venv}
  if [[ ! -f $venv/.installed ]]; then
    { python3 -m venv "$venv" &&
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$folder/requirements.txt" &&
      touch "$venv/.installed"; } || { echo "note: the pushfake venv could not be made: its tests are skipped" >&2; return 0; }
  fi
  STATLINE_PUSHFAKE=$(cd "$folder" && pwd)/pushfake.py
  STATLINE_PUSHFAKE_PYTHON=$venv/bin/python
  export STATLINE_PUSHFAKE STATLINE_PUSHFAKE_PYTHON
}

statline_find_real_fixtures() {
  if [[ -z ${STATLINE_REAL_FIXTURES:-} && -d ../shared/fixtures/real ]]; then
    STATLINE_REAL_FIXTURES=$(cd ../shared/fixtures/real && pwd)
    export STATLINE_REAL_FIXTURES
  fi
}
