#!/usr/bin/env bash
# Installs trackwatch for the current user, as a systemd user service; `make install` / `make uninstall`.
#
#   scripts/install.sh install            binary, user unit, docs, catalog; a first config if there is none
#   scripts/install.sh uninstall          stops and disables the service, removes what install put in place;
#                                         your config and state stay
#   scripts/install.sh install-catalog    (root) the journal message catalog, system-wide, so that
#   scripts/install.sh uninstall-catalog  `journalctl -x` explains trackwatch's entries
#
# Environment:
#   PREFIX   where the binary and data go                  (default ~/.local)
#   BIN      directory holding the built trackwatch binary (default: `swift build -c release --show-bin-path`)
#   DESTDIR  staging root for packaging (optional): nothing outside it is touched, no config is created
#
# Installed files:
#   $PREFIX/bin/trackwatch
#   ${XDG_CONFIG_HOME:-~/.config}/systemd/user/trackwatch.service   (%h/.local/ rewritten to $PREFIX/)
#   $PREFIX/share/doc/trackwatch/{README.md,config.example.toml}     (those that exist in the tree)
#   $PREFIX/share/trackwatch/trackwatch.catalog                       (if it exists in the tree)
#   $PREFIX/share/icons/hicolor/scalable/apps/trackwatch.svg          the bubbles' icon
#   $PREFIX/share/applications/trackwatch.desktop                     names the app and its icon for the
#                                                                     desktop (bubbles' desktop-entry hint)
#   ${XDG_CONFIG_HOME:-~/.config}/trackwatch/config.toml              (mode 0600, only if missing)
#
# Both actions are idempotent. Exit status: 0 done; 1 failed (message on stderr); 64 usage.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
me=${0##*/}

die() { echo "$me: $*" >&2; exit 1; }
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

[ $# -eq 1 ] || usage
[ -n "${HOME:-}" ] || die "HOME is not set"
PREFIX=${PREFIX:-$HOME/.local}
PREFIX=${PREFIX%/}
DESTDIR=${DESTDIR:-}
config_home=${XDG_CONFIG_HOME:-$HOME/.config}
state_home=${XDG_STATE_HOME:-$HOME/.local/state}
case $PREFIX in
    /*) ;;
    *) die "PREFIX must be an absolute path: $PREFIX" ;;
esac
case $PREFIX in
    *[[:space:]]*) die "PREFIX must not contain spaces (it goes into ExecStart=): $PREFIX" ;;
esac

bin_dir=$DESTDIR$PREFIX/bin
doc_dir=$DESTDIR$PREFIX/share/doc/trackwatch
data_dir=$DESTDIR$PREFIX/share/trackwatch
man_file=$DESTDIR$PREFIX/share/man/man1/trackwatch.1
bash_completion=$DESTDIR$PREFIX/share/bash-completion/completions/trackwatch
zsh_completion=$DESTDIR$PREFIX/share/zsh/site-functions/_trackwatch
fish_completion=$DESTDIR$PREFIX/share/fish/vendor_completions.d/trackwatch.fish
icon_file=$DESTDIR$PREFIX/share/icons/hicolor/scalable/apps/trackwatch.svg
desktop_file=$DESTDIR$PREFIX/share/applications/trackwatch.desktop
unit_dir=$DESTDIR$config_home/systemd/user
unit=$unit_dir/trackwatch.service
config=$config_home/trackwatch/config.toml
system_catalog_dir=/usr/local/lib/systemd/catalog   # read by `journalctl --update-catalog`, like /usr/lib/…

# systemctl --user, only when a user manager answers (not in a package build, not over plain ssh without one).
user_manager() { [ -z "$DESTDIR" ] && systemctl --user show-environment > /dev/null 2>&1; }

# The unit with every %h/.local/ replaced by PREFIX; under $HOME it stays relative to %h.
render_unit() {
    local target
    case $PREFIX in
        "$HOME"/*) target="%h/$(escape_specifiers "${PREFIX#"$HOME"/}")" ;;
        *) target=$(escape_specifiers "$PREFIX") ;;
    esac
    target=$(printf '%s' "$target" | sed 's/[&|\\]/\\&/g')   # for the sed replacement below
    sed "s|%h/\\.local/|$target/|g" "$src/systemd/trackwatch.service"
}
escape_specifiers() { printf '%s' "${1//%/%%}"; }   # a literal % in a path would start a specifier

do_install() {
    local bin=${BIN:-}
    if [ -z "$bin" ]; then
        command -v "${SWIFT:-swift}" > /dev/null || die "swift not found; set BIN to the directory holding trackwatch"
        bin=$(cd "$src" && "${SWIFT:-swift}" build -c release --show-bin-path)
    fi
    [ -x "$bin/trackwatch" ] || die "$bin/trackwatch not found: build it first (make release)"
    case $PREFIX in
        /tmp/* | /var/tmp/*) echo "$me: warning: the unit's PrivateTmp=yes hides $PREFIX from the service" >&2 ;;
    esac

    install -d "$bin_dir" "$unit_dir" "$doc_dir"
    install -m 0755 "$bin/trackwatch" "$bin_dir/trackwatch"
    echo "installed $bin_dir/trackwatch"
    render_unit > "$unit.tmp"
    chmod 0644 "$unit.tmp"
    mv -f "$unit.tmp" "$unit"
    echo "installed $unit"
    local f
    for f in README.md etc/config.example.toml; do
        [ -f "$src/$f" ] || continue
        install -m 0644 "$src/$f" "$doc_dir/${f##*/}"
        echo "installed $doc_dir/${f##*/}"
    done
    # Shell completions, generated from the command definitions by the binary itself.
    local shell target
    for shell in bash zsh fish; do
        case $shell in bash) target=$bash_completion ;; zsh) target=$zsh_completion ;; fish) target=$fish_completion ;; esac
        install -d "${target%/*}"
        "$bin/trackwatch" --generate-completion-script "$shell" > "$target.tmp" && mv -f "$target.tmp" "$target" &&
            echo "installed $target"
    done
    # The man page, generated from the same definitions (make man; MAN=path to use another).
    local man=${MAN:-$src/.build/man/trackwatch.1}
    if [ -f "$man" ]; then
        install -d "${man_file%/*}"
        install -m 0644 "$man" "$man_file"
        echo "installed $man_file"
    fi
    # What the desktop shows for trackwatch's bubbles: the icon (named "trackwatch" in each bubble) and the
    # desktop entry their desktop-entry hint names, so that GNOME groups them and settings can find the app.
    install -d "${icon_file%/*}" "${desktop_file%/*}"
    install -m 0644 "$src/data/icons/hicolor/scalable/apps/trackwatch.svg" "$icon_file"
    echo "installed $icon_file"
    local exec_path
    exec_path=$(printf '%s' "$PREFIX/bin/trackwatch" | sed 's/[&|\\]/\\&/g')
    sed "s|^Exec=trackwatch |Exec=$exec_path |" "$src/data/trackwatch.desktop" > "$desktop_file.tmp"
    chmod 0644 "$desktop_file.tmp"
    mv -f "$desktop_file.tmp" "$desktop_file"
    echo "installed $desktop_file"
    if [ -f "$src/systemd/trackwatch.catalog" ]; then
        install -d "$data_dir"
        install -m 0644 "$src/systemd/trackwatch.catalog" "$data_dir/trackwatch.catalog"
        echo "installed $data_dir/trackwatch.catalog (for journalctl -x: sudo make install-catalog)"
    fi

    [ -z "$DESTDIR" ] || return 0
    if [ -e "$config" ]; then
        echo "kept your configuration $config"
    elif [ -f "$src/etc/config.example.toml" ]; then
        install -d -m 0700 "${config%/*}"
        install -m 0600 "$src/etc/config.example.toml" "$config"
        echo "created $config from the example (mode 0600): set your server, user name and password source"
    else
        echo "no configuration yet: create $config (see trackwatch --help)"
    fi
    echo
    echo "Next:"
    echo "    systemctl --user daemon-reload"
    echo "    systemctl --user enable --now trackwatch"
    if user_manager && systemctl --user is-active --quiet trackwatch.service; then
        echo "(trackwatch is running the previous binary: systemctl --user restart trackwatch)"
    fi
}

do_uninstall() {
    if user_manager; then
        if systemctl --user disable --now trackwatch.service 2> /dev/null; then
            echo "stopped and disabled trackwatch.service"
        fi
    fi
    # `disable` removes it when a manager answers; by hand when none does.
    rm -f "$unit_dir/default.target.wants/trackwatch.service"
    rmdir "$unit_dir/default.target.wants" 2> /dev/null || true
    local f
    for f in "$bin_dir/trackwatch" "$unit" "$doc_dir/README.md" "$doc_dir/config.example.toml" \
        "$data_dir/trackwatch.catalog" "$man_file" "$bash_completion" "$zsh_completion" "$fish_completion" \
        "$icon_file" "$desktop_file"; do
        [ -e "$f" ] || continue
        rm -f "$f"
        echo "removed $f"
    done
    rmdir "$doc_dir" "$data_dir" 2> /dev/null || true
    if user_manager; then
        systemctl --user daemon-reload
        systemctl --user reset-failed trackwatch.service 2> /dev/null || true
    fi
    [ ! -d "$unit_dir/trackwatch.service.d" ] || echo "kept your drop-ins in $unit_dir/trackwatch.service.d"
    [ ! -e "$config" ] || echo "kept your configuration in ${config%/*}"
    [ ! -d "$state_home/trackwatch" ] || echo "kept the state (what was already reported) in $state_home/trackwatch"
}

do_install_catalog() {
    [ -f "$src/systemd/trackwatch.catalog" ] || die "no systemd/trackwatch.catalog in $src"
    [ -n "$DESTDIR" ] || [ "$(id -u)" -eq 0 ] || die "the system catalog needs root: sudo make install-catalog"
    install -d "$DESTDIR$system_catalog_dir"
    install -m 0644 "$src/systemd/trackwatch.catalog" "$DESTDIR$system_catalog_dir/trackwatch.catalog"
    echo "installed $DESTDIR$system_catalog_dir/trackwatch.catalog"
    [ -n "$DESTDIR" ] || journalctl --update-catalog
}

do_uninstall_catalog() {
    [ -n "$DESTDIR" ] || [ "$(id -u)" -eq 0 ] || die "the system catalog needs root: sudo make uninstall-catalog"
    rm -f "$DESTDIR$system_catalog_dir/trackwatch.catalog"
    [ -n "$DESTDIR" ] || journalctl --update-catalog
    echo "removed $DESTDIR$system_catalog_dir/trackwatch.catalog"
}

case $1 in
    install) do_install ;;
    uninstall) do_uninstall ;;
    install-catalog) do_install_catalog ;;
    uninstall-catalog) do_uninstall_catalog ;;
    *) usage ;;
esac
