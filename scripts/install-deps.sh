#!/usr/bin/env bash
# Installs the Debian packages a make target needs, and nothing more (idempotent; needs root or sudo).
#
#   scripts/install-deps.sh build   the C libraries behind CSQLite, CSystemd, CZlib, and libnotify, which trackwatch
#                                   opens at run time (make build, release, install, demo: the demo needs nothing else)
#   scripts/install-deps.sh deb     build + what makes and checks the package (make deb)
#   scripts/install-deps.sh test    deb + the test labs (make test): journald, a private session bus, a mock
#                                   notification server, a Secret Service, openssl, lintian, dunst on Xvfb,
#                                   headless GNOME Shell, Chromium
#
# libsystemd-dev requires the libsystemd0 of its own version: it is installed at the version of the
# libsystemd0 already there when the archive still has it, so that building trackwatch never upgrades
# systemd under a running machine.
set -euo pipefail
build=(pkg-config libsqlite3-dev libsystemd-dev libnotify4 zlib1g-dev)
deb=(dpkg-dev binutils)                                     # dpkg-shlibdeps, dpkg-deb; strip, objcopy
test=(
  systemd dbus dbus-user-session libglib2.0-bin util-linux  # journald, a private session bus, gdbus, unshare
  python3-dbusmock libnotify-bin                            # a real notification server (dbusmock's template)
  openssl                                                   # a self-signed certificate for the TLS tests
  python3-venv                                              # a private environment for Jira's client (jira-sim's check)
  gnome-keyring libsecret-tools                             # keyring = true against a real Secret Service
  lintian                                                   # the package: no errors, no warnings
  # what a person sees — dunst (a notification server that draws) on Xvfb, screenshots (import, xwininfo),
  # the SVG icon drawn (librsvg's pixbuf loader), the desktop entry validated, the changes page in Chromium
  xvfb dunst imagemagick x11-utils xdotool librsvg2-common fonts-dejavu-core desktop-file-utils chromium
  # GNOME Shell 43 headless (Tests/IntegrationTests/GnomeLab.swift); gjs runs its notification proxy, yet apt
  # does not pull it in, not even as a Recommends
  gnome-shell gjs
)
case ${1:-} in
  build) packages=("${build[@]}") ;;
  deb) packages=("${build[@]}" "${deb[@]}") ;;
  test) packages=("${build[@]}" "${deb[@]}" "${test[@]}") ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64 ;;
esac
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
apt() { $sudo apt-get -o DPkg::Lock::Timeout=600 "$@"; }
export DEBIAN_FRONTEND=noninteractive
apt update -q
if installed libsystemd0; then
  v=$(dpkg-query -W -f='${Version}' libsystemd0)
  for i in "${!missing[@]}"; do
    if [ "${missing[$i]}" = libsystemd-dev ] && apt-cache show "libsystemd-dev=$v" > /dev/null 2>&1; then
      missing[$i]="libsystemd-dev=$v"
    fi
  done
fi
echo "installing: ${missing[*]}"
apt install -y -q --no-install-recommends "${missing[@]}"
