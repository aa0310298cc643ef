#!/usr/bin/env bash
# Stops the lab started by userenv-start.sh and removes its traces on the host: the user manager (its units
# are stopped by `systemctl --user exit`), anything still left in the lab's cgroups, journald, the cgroup
# directories and the pid files. The mount namespace, and with it every tmpfs, disappears with its last
# process. The user account and its home stay (the next start is faster), unless --purge is given
# (which removes only an account that userenv-start.sh created).
# Idempotent: safe to run when nothing, or only half a lab, is running.
#
#   scripts/userenv-stop.sh [--purge]
#
# Exit status: 0 stopped (or nothing to stop); 1 some process or cgroup could not be removed; 2 not root.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/userenv-common.sh"
lab_require_root

status=0
gone() { ! kill -0 "$1" 2> /dev/null; }

# Ends a process: SIGTERM, then SIGKILL after SECONDS.
end_process() {
    local pid=$1 seconds=$2
    kill -TERM "$pid" 2> /dev/null || return 0
    lab_wait_for "$seconds" gone "$pid" && return 0
    kill -KILL "$pid" 2> /dev/null
    lab_wait_for 5 gone "$pid"
}

# Kills every process left in a cgroup subtree (units the manager did not stop, stray helpers).
empty_cgroup() {
    local dir=$1
    [ -d "$dir" ] || return 0
    procs() { find "$dir" -name cgroup.procs -exec cat {} + 2> /dev/null; }
    [ -z "$(procs)" ] && return 0
    if [ -f "$dir/cgroup.kill" ]; then echo 1 > "$dir/cgroup.kill"; else procs | xargs -r kill -KILL 2> /dev/null; fi
    lab_wait_for 5 test -z "$(procs)" || { echo "${0##*/}: processes left in $dir: $(procs | tr '\n' ' ')" >&2; status=1; }
}

# 1. The manager: a clean exit stops its units first.
if pid=$(lab_live_pid manager); then
    "$here/userenv-exec.sh" systemctl --user exit > /dev/null 2>&1
    lab_wait_for 15 gone "$pid" || end_process "$pid" 5
fi

if id -u "$LAB_USER" > /dev/null 2>&1; then
    uid=$(lab_uid)
    # 2. Whatever is left in the user's subtree, then the subtree itself (deepest first).
    for h in $(lab_hierarchies); do
        empty_cgroup "$h/$(lab_manager_cgroup "$uid")"
        if [ -d "$h/user.slice/user-$uid.slice" ]; then
            find "$h/user.slice/user-$uid.slice" -depth -type d -exec rmdir {} + 2> /dev/null
            [ -d "$h/user.slice/user-$uid.slice" ] && { echo "${0##*/}: cannot remove $h/user.slice/user-$uid.slice" >&2; status=1; }
        fi
        rmdir "$h/user.slice" 2> /dev/null   # only if no other lab uses it
    done
fi

# 3. journald (it flushes on SIGTERM), then anything else in the lab's own cgroup.
if pid=$(lab_live_pid journald); then end_process "$pid" 5; fi
for h in $(lab_hierarchies); do
    empty_cgroup "$h/$LAB_AUX_CGROUP"
    if [ -d "$h/$LAB_AUX_CGROUP" ]; then
        rmdir "$h/$LAB_AUX_CGROUP" 2> /dev/null || { echo "${0##*/}: cannot remove $h/$LAB_AUX_CGROUP" >&2; status=1; }
    fi
done
rm -f "$LAB_STATE/manager.pid" "$LAB_STATE/journald.pid"

if [ "${1:-}" = --purge ]; then
    if id -u "$LAB_USER" > /dev/null 2>&1; then
        if [ "$(getent passwd "$LAB_USER" | cut -d: -f5)" = "$LAB_USER_COMMENT" ]; then
            userdel --remove "$LAB_USER" 2> /dev/null
            echo "removed user $LAB_USER"
        else
            echo "${0##*/}: not removing $LAB_USER: not an account made by userenv-start.sh" >&2
            status=1
        fi
    fi
    rm -rf "$LAB_STATE"
fi
exit $status
