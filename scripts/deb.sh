#!/usr/bin/env bash
# Builds the Debian package from a release build (`make deb` runs it after `make release man`):
#
#   dist/trackwatch_<version>-<revision>_<arch>.deb          runs on Debian 12 / Ubuntu 22.04+ without Swift
#   dist/trackwatch-dbgsym_<version>-<revision>_<arch>.deb   the binary's debug symbols, by build id
#
# The package tree is what `scripts/install.sh install` installs with DESTDIR=<staging> PREFIX=/usr (so a file
# added to install.sh is packaged with no further work), plus what Debian wants of every package: the man page
# gzipped, /usr/share/doc/trackwatch/{copyright,changelog.Debian.gz,changelog.gz,README.Debian}, control and
# md5sums. Depends: is computed by dpkg-shlibdeps from the libraries the binary links, never written by hand,
# but for libnotify4, which the binary opens at run time.
# No maintainer scripts: systemd's dpkg trigger indexes /usr/lib/systemd/catalog on install and removal, and
# the unit is enabled for nobody (packaging/debian/README.Debian).
#
# Environment:
#   BIN           directory holding the release trackwatch (default: `swift build -c release --show-bin-path`);
#                 it must be linked with --static-swift-stdlib (make release)
#   MAN           the man page (default .build/man/trackwatch.1, from `make man`)
#   DEB_REVISION  Debian revision (default 1)
#   DEB_MAINTAINER  the Maintainer: field (default: the one below; set it to a real address when publishing)
#
# Prints the packages' paths last. Exit status: 0 built; 1 failed (message on stderr).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
me=${0##*/}
die() { echo "$me: $*" >&2; exit 1; }
cd "$src"

bin=${BIN:-$(swift build -c release --show-bin-path)}
man=${MAN:-$src/.build/man/trackwatch.1}
version=$(tr -d ' \t\n' < VERSION)
package_version=$version-${DEB_REVISION:-1}
maintainer=${DEB_MAINTAINER:-trackwatch maintainers <trackwatch-maintainers@example.com>}
arch=$(dpkg --print-architecture)
for tool in dpkg-deb dpkg-shlibdeps strip objcopy readelf gzip; do
    command -v "$tool" > /dev/null || die "$tool is missing: scripts/install-deps.sh deb"
done
[ -x "$bin/trackwatch" ] || die "$bin/trackwatch not found: make release"
[ -f "$man" ] || die "$man not found: make man"

# The binary must be the one this tree describes, and must not need a Swift toolchain at run time.
built=$("$bin/trackwatch" --version)
[ "$built" = "$version" ] || die "$bin/trackwatch --version says $built, VERSION says $version: rebuild (make release)"
swift_libraries=$(readelf -d "$bin/trackwatch" | sed -n 's/.*Shared library: \[\(libswift[^]]*\|libFoundation[^]]*\|libdispatch[^]]*\|libBlocksRuntime[^]]*\)\].*/\1/p')
[ -z "$swift_libraries" ] || die "$bin/trackwatch needs the Swift runtime ($(echo $swift_libraries)): build it with --static-swift-stdlib (make release)"
build_id=$(readelf -n "$bin/trackwatch" | sed -n 's/^ *Build ID: *//p')
[ -n "$build_id" ] || die "$bin/trackwatch has no build id (the dbgsym package is found by it)"

# Reproducible: every timestamp is the last commit's (or VERSION's when there is no git).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct 2> /dev/null || stat -c %Y VERSION)}
date=$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")

work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/trackwatch
mkdir -m 0755 "$stage"
umask 022

# --- The files: what install.sh installs, at the system locations ---
DESTDIR=$stage PREFIX=/usr BIN=$bin MAN=$man HOME=$work/home scripts/install.sh install > "$work/install.out" ||
    { cat "$work/install.out" >&2; die "install.sh into the staging tree failed"; }
[ -x "$stage/usr/bin/trackwatch" ] && [ -f "$stage/usr/lib/systemd/user/trackwatch.service" ] ||
    die "install.sh did not stage /usr/bin/trackwatch and /usr/lib/systemd/user/trackwatch.service"
grep -qx 'ExecStart=/usr/bin/trackwatch run' "$stage/usr/lib/systemd/user/trackwatch.service" ||
    die "the staged unit does not start /usr/bin/trackwatch run"

doc=$stage/usr/share/doc/trackwatch
gzip -9n "$stage/usr/share/man/man1/trackwatch.1"
install -m 0644 packaging/debian/copyright packaging/debian/README.Debian "$doc/"
# The lintian tags that are right for this package, each with its reason (in the file).
install -d "$stage/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/trackwatch"
gzip -9nc CHANGELOG.md > "$doc/changelog.gz"
# The Debian changelog: this revision, pointing at the upstream one.
{
    echo "trackwatch ($package_version) unstable; urgency=medium"
    echo
    echo "  * trackwatch $version, built by make deb (scripts/deb.sh). What changed:"
    echo "    /usr/share/doc/trackwatch/changelog.gz"
    echo
    echo " -- $maintainer  $date"
} | gzip -9n > "$doc/changelog.Debian.gz"

# --- The debug symbols, before they are gone: /usr/lib/debug/.build-id/xx/yyyy.debug ---
dbg=$work/trackwatch-dbgsym
debug_file=$dbg/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
mkdir -p "${debug_file%/*}" "$dbg/usr/share/doc"
objcopy --only-keep-debug --compress-debug-sections "$bin/trackwatch" "$debug_file"
chmod 0644 "$debug_file"
ln -s trackwatch "$dbg/usr/share/doc/trackwatch-dbgsym"
staged_id=$(readelf -n "$stage/usr/bin/trackwatch" | sed -n 's/^ *Build ID: *//p')
[ "$staged_id" = "$build_id" ] || die "the staged binary's build id $staged_id differs from the build's $build_id"

# --- Control files ---
installed_size() { du -sk --exclude=DEBIAN "$1" | cut -f1; }
mkdir -p "$work/debian"   # dpkg-shlibdeps reads the source's control file
printf 'Source: trackwatch\n\nPackage: trackwatch\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e trackwatch/usr/bin/trackwatch 2> "$work/shlibdeps.err") ||
    { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
depends=${depends#shlibs:Depends=}
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"
# libnotify is opened at run time (dlopen), so dpkg-shlibdeps cannot see it, nor the GLib functions called beside it:
# every libnotify function trackwatch calls is in 0.7.0 (its symbols file), every GLib one in 2.28
# (g_main_context_invoke, g_list_free_full).
depends="$depends, libnotify4 (>= 0.7.0), libglib2.0-0 (>= 2.28)"

mkdir -m 0755 "$stage/DEBIAN"
sed -e "s|@VERSION@|$package_version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$(installed_size "$stage")|" -e "s|@DEPENDS@|$depends|" \
    packaging/debian/control.in > "$stage/DEBIAN/control"
mkdir -m 0755 "$dbg/DEBIAN"
cat > "$dbg/DEBIAN/control" <<CONTROL
Package: trackwatch-dbgsym
Source: trackwatch
Version: $package_version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(installed_size "$dbg")
Depends: trackwatch (= $package_version)
Section: debug
Priority: optional
Description: debug symbols for trackwatch
Build-Ids: $build_id
Auto-Built-Package: debug-symbols
CONTROL
for tree in "$stage" "$dbg"; do
    (cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
        > "$tree/DEBIAN/md5sums"
    chmod 0644 "$tree/DEBIAN/control" "$tree/DEBIAN/md5sums"
    find "$tree" -type d -exec chmod 0755 {} +
    find "$tree" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
done

mkdir -p dist
deb=dist/trackwatch_${package_version}_$arch.deb
dbgsym=dist/trackwatch-dbgsym_${package_version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
# gzip: the debug sections are compressed already, and xz would take 15 s more to save 2 %.
dpkg-deb --root-owner-group -Zgzip --build "$dbg" "$dbgsym" > /dev/null
echo "Depends: $depends"
echo "$src/$deb"
echo "$src/$dbgsym"
