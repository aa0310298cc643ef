#!/usr/bin/env bash
# The package on a Debian 12 that has never seen Swift: debootstraps a minimal bookworm into a scratch
# directory, installs the .deb there with apt-get (so its Depends: must pull in everything the binary needs),
# and runs trackwatch check in it against compass-sim on this machine's loopback: a baseline, a colleague's
# change, the change reported. Not part of make test (debootstrap downloads ~100 MB and takes minutes); run it
# before publishing a package. Root only.
#
#   scripts/deb-on-fresh-debian.sh dist/trackwatch_<version>_<arch>.deb
#   BIN     directory with compass-sim (default: `swift build --show-bin-path`)
#   MIRROR  Debian mirror (default http://deb.debian.org/debian)
#
# Exit status: 0 the change was reported; 1 it was not, or a step failed; 2 usage.
set -euo pipefail
[ $# -eq 1 ] && [ -f "$1" ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "${0##*/}: debootstrap and chroot need root" >&2; exit 2; }
deb=$1
bin=${BIN:-$(swift build --show-bin-path)}
root=$(mktemp -d /tmp/trackwatch-fresh-debian.XXXXXX)
chmod 755 "$root"   # apt downloads as _apt
sim_pid=""
cleanup() {
    [ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null || true
    mountpoint -q "$root/proc" && umount "$root/proc"
    rm -rf "$root"
}
trap cleanup EXIT
command -v debootstrap > /dev/null || apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends debootstrap

echo "== debootstrap --variant=minbase bookworm"
debootstrap --variant=minbase bookworm "$root" "${MIRROR:-http://deb.debian.org/debian}" > "$root.log" 2>&1 ||
    { tail -20 "$root.log"; exit 1; }
rm -f "$root.log"
mount -t proc proc "$root/proc"
! chroot "$root" sh -c 'command -v swift || ls /usr/lib/swift /opt/swift' > /dev/null 2>&1 || { echo "Swift is in the chroot"; exit 1; }
cp "$deb" "$root/tmp/"
echo "== apt-get install ./${deb##*/}"
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/${deb##*/}" |
    grep -E 'newly installed|^Setting up trackwatch'
echo "trackwatch --version: $(chroot "$root" trackwatch --version)"

"$bin/compass-sim" --port 0 > "$root/tmp/sim.out" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do grep -q '^listening on ' "$root/tmp/sim.out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$root/tmp/sim.out")
mkdir -p -m 700 "$root/root/.config/trackwatch"
printf 'engineer\n' > "$root/root/.config/trackwatch/password"
chmod 600 "$root/root/.config/trackwatch/password"
printf '[server]\nurl = "%s"\nrepo = "2.0.0"\ndatabase = "SAMPL"\nusername = "engineer"\npassword_file = "~/.config/trackwatch/password"\n' \
    "$url" > "$root/root/.config/trackwatch/config.toml"
tw() { chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin trackwatch "$@"; }
echo "== trackwatch check (baseline), a colleague resolves SAMPL00000001, trackwatch check"
tw check
"$bin/compass-sim" act --url "$url" --user lead --record SAMPL00000001 --action Resolve > /dev/null
tw check | tee "$root/tmp/check.out"
grep -q '^SAMPL00000001 resolved by lead' "$root/tmp/check.out" || { echo "the change was not reported"; exit 1; }
echo "ok: the package runs on a fresh Debian 12 without Swift"
