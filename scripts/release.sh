#!/usr/bin/env bash
# Builds the release archive of petmock and petcontract for this machine's architecture, as the
# release workflow (.github/workflows/release.yml) publishes it for a version tag, and checks
# that the binaries run where no Swift is installed:
#   dist/petkit-VERSION-linux-ARCH.tar.gz   petmock, petcontract, INSTALL.txt
#   dist/petkit-VERSION-linux-ARCH.tar.gz.sha256
# VERSION must be the version the tools print (petkitVersion, Sources/HTTPCore/Shared/Version.swift).
# Usage: scripts/release.sh VERSION [OUTDIR]   (SWIFT=path to swift; build output on stderr)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/release.sh VERSION [OUTDIR]" >&2; exit 64; }
version=${1#v}
out=${2:-dist}
source_version=$(sed -n 's/^public let petkitVersion = "\(.*\)"$/\1/p' Sources/HTTPCore/Shared/Version.swift)
if [ "$version" != "$source_version" ]; then
    echo "release: the tag says $version, the tools say $source_version (Sources/HTTPCore/Shared/Version.swift)" >&2
    exit 1
fi
[ "$(uname -s)" = Linux ] || { echo "release: builds Linux archives; run it on Linux" >&2; exit 1; }
arch=$(uname -m)
name="petkit-$version-linux-$arch"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
for tool in petmock petcontract; do
    binary=$(scripts/build-tool.sh "$tool")
    cp "$binary" "$stage/$name/$tool"
    strip "$stage/$name/$tool" 2>/dev/null || true
    scripts/check-release-binary.sh "$stage/$name/$tool" "$version"
done
cat >"$stage/$name/INSTALL.txt" <<TEXT
petkit $version for Linux ($arch): petmock and petcontract, with the Swift runtime linked in.

Put both on your PATH. They need these system libraries (Debian and Ubuntu package names):
  libxml2 libyaml-0-2 zlib1g libstdc++6    always
  libcurl4                                  petcontract verify --live, petmock's proxy and record
  apt-get install -y libxml2 libyaml-0-2 zlib1g libcurl4

petmock serve --stubs Stubs --port 8080
petcontract verify --live http://127.0.0.1:8080/api --contract openapi.json
TEXT
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
