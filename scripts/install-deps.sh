#!/usr/bin/env bash
# Installs the Debian packages trackwatch needs to build and to run its tests (idempotent; needs root or sudo).
set -euo pipefail
packages=(
  pkg-config libsqlite3-dev libsystemd-dev libnotify-dev   # build: C libraries behind CSQLite, CSystemd, CLibnotify
  systemd dbus dbus-user-session libglib2.0-bin util-linux # tests: journald, a private session bus, gdbus, unshare
  python3-dbusmock libnotify-bin                            # tests: a real notification server (dbusmock's template)
  openssl                                                   # tests: a self-signed certificate for the TLS tests
  gnome-keyring libsecret-tools                             # tests: keyring = true against a real Secret Service
  # tests: what a person sees — dunst (a notification server that draws) on Xvfb, screenshots (import, xwininfo),
  # the SVG icon drawn (librsvg's pixbuf loader), the desktop entry validated, the changes page in Chromium
  xvfb dunst imagemagick x11-utils librsvg2-common fonts-dejavu-core desktop-file-utils chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=600 update -q
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
