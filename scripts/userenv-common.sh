# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this file
# Shared by userenv-start.sh, userenv-exec.sh and userenv-stop.sh (sourced, not run).
#
# The lab: an unprivileged user (LAB_USER) with a real `systemd --user` manager and a real journald, on a
# host whose PID 1 is not systemd (CI containers and VMs). Everything the lab fakes (/run/systemd,
# /run/log, /run/user/UID) lives in a private mount namespace; the only traces on the host are the user
# account, the cgroup directories below and LAB_STATE, and userenv-stop.sh removes the latter two.
#
#   LAB_USER   the lab user, created if missing          (default trackwatch-ci)
#   LAB_STATE  pid files and the manager's/journald's output  (default /tmp/trackwatch-userenv)

LAB_USER=${LAB_USER:-trackwatch-ci}
LAB_STATE=${LAB_STATE:-/tmp/trackwatch-userenv}
# journald and the namespace's own root process live here until the latter becomes the manager, so that
# nothing of the lab ever runs in the root cgroup.
LAB_AUX_CGROUP=trackwatch-userenv.scope

# The lab user's GECOS field: userenv-stop.sh --purge deletes only an account that carries it.
LAB_USER_COMMENT="trackwatch lab user (scripts/userenv-start.sh)"

lab_die() { echo "${0##*/}: $*" >&2; exit 1; }

lab_require_root() {
    [ "$(id -u)" -eq 0 ] || { echo "${0##*/}: must run as root (it mounts, creates cgroups and a user)" >&2; exit 2; }
}

lab_uid() { id -u "$LAB_USER"; }
lab_gid() { id -g "$LAB_USER"; }
lab_home() { getent passwd "$LAB_USER" | cut -d: -f6; }

# The cgroup hierarchies the lab works in: the root on a pure cgroup2 host; the unified (cgroup2) and the
# name=systemd (v1) hierarchies on a hybrid host (systemd needs both there). v1 controller hierarchies
# (cpu, memory, …) are left alone: an unprivileged manager does not use them.
lab_hierarchies() {
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        echo /sys/fs/cgroup
    else
        local h
        for h in /sys/fs/cgroup/unified /sys/fs/cgroup/systemd; do
            [ -f "$h/cgroup.procs" ] && echo "$h"
        done
    fi
    return 0
}

# Named like logind + user@.service name it, so that journald attributes entries to _SYSTEMD_USER_UNIT=.
lab_manager_cgroup() { echo "user.slice/user-$1.slice/user@$1.service"; }

# The pid in a pid file, if that process is alive.
lab_live_pid() {
    local pid
    pid=$(cat "$LAB_STATE/$1.pid" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Waits until CMD... succeeds, polling every 0.1 s, for at most SECONDS seconds.
lab_wait_for() {
    local seconds=$1; shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}
