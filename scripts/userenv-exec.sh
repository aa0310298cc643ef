#!/usr/bin/env bash
# Runs a command inside the lab started by userenv-start.sh: in its mount namespace (so it sees the lab's
# journald, /run/user/UID and the manager's sockets), as the lab user with the environment a login session
# would give it (XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, HOME), in the user's home directory.
#
#   scripts/userenv-exec.sh systemctl --user status trackwatch
#   scripts/userenv-exec.sh --root journalctl -o json _SYSTEMD_USER_UNIT=trackwatch.service
#                                  (--root: as root, keeping root's environment and working directory)
#
# Exit status: the command's; 2 when not run as root; 3 when the lab is not running.
set -euo pipefail
. "$(dirname "$0")/userenv-common.sh"
lab_require_root

pid=$(lab_live_pid manager) || { echo "${0##*/}: the lab is not running (scripts/userenv-start.sh)" >&2; exit 3; }
if [ "${1:-}" = --root ]; then
    shift
    exec nsenter --target "$pid" --mount -- "$@"
fi
uid=$(lab_uid)
home=$(lab_home)
# setpriv, not runuser/su: no PAM session (pam_systemd would try to reach a logind that is not there).
exec nsenter --target "$pid" --mount --wd="$home" -- \
    setpriv --reuid="$uid" --regid="$(lab_gid)" --init-groups -- \
    env -i HOME="$home" USER="$LAB_USER" LOGNAME="$LAB_USER" SHELL=/bin/bash LANG=C.UTF-8 \
    PATH=/usr/local/bin:/usr/bin:/bin TERM="${TERM:-dumb}" \
    XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" \
    "$@"
