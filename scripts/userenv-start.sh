#!/usr/bin/env bash
# Starts a real journald and a real `systemd --user` manager for the lab user (LAB_USER, default
# trackwatch-ci, created if missing) on a host whose PID 1 is not systemd, so that user units can be
# tested for real: Type=notify, watchdog, restarts, sandboxing, the user's D-Bus, journal attribution.
# Run as root. Idempotent: a running lab is left alone; a half-dead one is cleaned up and started anew.
# On failure it prints what the manager and journald said, removes everything again and exits 1.
#
#   scripts/userenv-start.sh          then scripts/userenv-exec.sh …, finally scripts/userenv-stop.sh
#
# What it fakes, inside a private mount namespace only (what logind and PID 1 would provide):
#   /run            a private tmpfs with what PID 1 creates there: systemd/system/ (sd_booted() is true),
#                   systemd/unit-root/ and credentials/ (needed by sandboxing options and LoadCredential=),
#                   log/ for this journald alone (never share /run/log/journal with another journald)
#   /run/user/UID   the user's XDG_RUNTIME_DIR, a tmpfs owned by the user
#   /var/log/journal  a tmpfs, so that the journal is persistent (per-user files) and private to the lab
# and on the host: a delegated cgroup subtree user.slice/user-UID.slice/user@UID.service owned by the
# user. The manager must never start in the root cgroup: it would move every process there, PID 1
# included, into its own init.scope.
#
# Exit status: 0 the manager runs; 1 it could not be started (cleaned up); 2 not root or a tool missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/userenv-common.sh"
lab_require_root

SYSTEMD=/lib/systemd/systemd
JOURNALD=/lib/systemd/systemd-journald

# --- The part that runs inside the new mount namespace (as root, then exec'ed into the manager). ---
inner() {
    local uid gid home h
    uid=$(lab_uid); gid=$(lab_gid); home=$(lab_home)
    for h in $(lab_hierarchies); do echo $$ > "$h/$LAB_AUX_CGROUP/cgroup.procs"; done

    # A private /run, laid out as PID 1 would: a tmpfs mount point (without one, units with
    # ProtectKernelTunables=/ProtectControlGroups= get an empty tmpfs over /run and lose the bus and the notify
    # socket), /run/systemd/system (sd_booted() is true), /run/systemd/unit-root (for sandboxing options),
    # /run/credentials (the mount point LoadCredential= hides others' credentials under: 226/NAMESPACE
    # without it), and /run/log for this journald alone.
    mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /run
    mkdir -p /run/systemd/system /run/systemd/unit-root /run/credentials /run/log /run/user
    mkdir -m 1777 /run/lock
    if [ -f /etc/machine-id ] && [ ! -s /etc/machine-id ]; then   # journald needs one; some images ship it empty
        systemd-id128 new > /run/systemd/machine-id && mount --bind /run/systemd/machine-id /etc/machine-id
    fi
    # Persistent storage, as on Debian and Ubuntu desktops, but on a tmpfs of this namespace's own: journald
    # then keeps a journal file per user that the user may read (trackwatch reads its own entries back to
    # prove delivery after a crash). On volatile storage only members of systemd-journal could.
    mkdir -p /var/log/journal
    mount -t tmpfs -o mode=2755,nosuid,nodev tmpfs /var/log/journal
    chgrp systemd-journal /var/log/journal 2> /dev/null || true
    "$JOURNALD" > "$LAB_STATE/journald.out" 2>&1 < /dev/null &
    echo $! > "$LAB_STATE/journald.pid"
    lab_wait_for 10 test -S /run/systemd/journal/socket || { echo "journald did not create its socket" >&2; exit 1; }
    journalctl --flush > /dev/null 2>&1 || true   # what systemd-journal-flush.service does at boot: /run → /var

    mkdir -p "/run/user/$uid"
    mount -t tmpfs -o "mode=700,uid=$uid,gid=$gid,size=64M" tmpfs "/run/user/$uid"

    for h in $(lab_hierarchies); do echo $$ > "$h/$(lab_manager_cgroup "$uid")/cgroup.procs"; done
    echo $$ > "$LAB_STATE/manager.pid"
    # SYSTEMD_LOG_TARGET: under user@.service the manager's stderr is the journal; here it would be the console.
    exec setpriv --reuid="$uid" --regid="$gid" --init-groups -- \
        env -i HOME="$home" USER="$LAB_USER" LOGNAME="$LAB_USER" SHELL=/bin/bash LANG=C.UTF-8 \
        PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR="/run/user/$uid" \
        DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" SYSTEMD_LOG_TARGET=journal-or-kmsg \
        "$SYSTEMD" --user
}
if [ "${1:-}" = --inner ]; then inner; fi

# --- Checks ---
for tool in unshare nsenter setpriv mountpoint useradd systemctl "$SYSTEMD" "$JOURNALD"; do
    command -v "$tool" > /dev/null || { echo "${0##*/}: $tool is missing (scripts/install-deps.sh test)" >&2; exit 2; }
done
[ -n "$(lab_hierarchies)" ] || { echo "${0##*/}: no usable cgroup hierarchy under /sys/fs/cgroup" >&2; exit 2; }

running() { "$here/userenv-exec.sh" systemctl --user is-system-running > /dev/null 2>&1; }
# is-system-running exits non-zero while "starting"; "running" and "degraded" both mean: ready.
settled() {
    local s
    s=$("$here/userenv-exec.sh" systemctl --user is-system-running 2> /dev/null) || true
    [ "$s" = running ] || [ "$s" = degraded ]
}
if lab_live_pid manager > /dev/null && settled; then
    echo "lab already running: user $LAB_USER, manager pid $(lab_live_pid manager)"
    exit 0
fi
"$here/userenv-stop.sh" > /dev/null 2>&1 || true   # leftovers of a lab that died

# --- The user and the delegated cgroup subtree ---
if ! id -u "$LAB_USER" > /dev/null 2>&1; then
    useradd --create-home --shell /bin/bash --user-group --comment "$LAB_USER_COMMENT" "$LAB_USER"
    echo "created user $LAB_USER"
fi
uid=$(lab_uid)
mkdir -p "$LAB_STATE"
rm -f "$LAB_STATE"/*.pid
failed() {
    echo "${0##*/}: $*" >&2
    for f in manager.out journald.out; do
        [ -s "$LAB_STATE/$f" ] && { echo "--- $LAB_STATE/$f" >&2; tail -n 30 "$LAB_STATE/$f" >&2; }
    done
    "$here/userenv-stop.sh" >&2 || true
    exit 1
}
for h in $(lab_hierarchies); do
    mkdir -p "$h/$LAB_AUX_CGROUP" "$h/$(lab_manager_cgroup "$uid")" || failed "cannot create cgroups under $h"
    chown -R "$LAB_USER:" "$h/$(lab_manager_cgroup "$uid")"
done

pid1_cgroup=$(cat /proc/1/cgroup)

# --- Start: a new session (no terminal signals from the caller), a private mount namespace ---
setsid unshare --mount --propagation private "$here/userenv-start.sh" --inner \
    > "$LAB_STATE/manager.out" 2>&1 < /dev/null &
lab_wait_for 15 settled || failed "the user manager did not come up within 15 s"

# The pitfall, checked: the manager sits in its own subtree, and PID 1 was not moved anywhere.
pid=$(lab_live_pid manager)
grep -q "user@$uid.service" "/proc/$pid/cgroup" || failed "manager $pid is not in user@$uid.service: $(cat "/proc/$pid/cgroup")"
[ "$(cat /proc/1/cgroup)" = "$pid1_cgroup" ] || failed "PID 1 changed cgroups: $(cat /proc/1/cgroup)"
state=$("$here/userenv-exec.sh" systemctl --user is-system-running || true)
echo "lab running: user $LAB_USER (uid $uid), manager pid $pid, state $state"
if [ "$state" = degraded ]; then "$here/userenv-exec.sh" systemctl --user --no-pager --failed; fi
