#!/usr/bin/env bash
# Installs trackwatch as a systemd user service: for yourself (`make install`, the default PREFIX ~/.local),
# system-wide for every user (PREFIX=/usr/local, as root), or into a staging tree for a package
# (`DESTDIR=stage PREFIX=/usr`, what scripts/deb.sh runs).
#
#   scripts/install.sh install            binary (stripped), user unit, completions, man page, docs, catalog;
#                                         for yourself also a first config if there is none
#   scripts/install.sh uninstall          (for yourself: stops and disables the service) removes what install
#                                         put in place; your config and state stay
#   scripts/install.sh install-catalog    (root) the journal message catalog, system-wide, so that
#   scripts/install.sh uninstall-catalog  `journalctl -x` explains trackwatch's entries
#
# Environment:
#   PREFIX   where the binary and data go                  (default ~/.local)
#   BIN      directory holding the built trackwatch binary (default: `swift build -c release --show-bin-path`)
#   MAN      the man page to install                       (default .build/man/trackwatch.1, from `make man`)
#   DESTDIR  staging root for packaging (optional): nothing outside it is touched, no config is created,
#            no service manager is asked anything
#
# Where things go. PREFIX /usr or /usr/local is a system-wide install, any other PREFIX a personal one:
#                       personal (PREFIX=~/.local, /opt/…)          system-wide (PREFIX=/usr, /usr/local)
#   binary              $PREFIX/bin/trackwatch                       same
#   user unit           ${XDG_CONFIG_HOME:-~/.config}/systemd/user/  $PREFIX/lib/systemd/user/
#   journal catalog     $PREFIX/share/trackwatch/ (install-catalog)  $PREFIX/lib/systemd/catalog/
#   zsh completion      $PREFIX/share/zsh/site-functions/            /usr: /usr/share/zsh/vendor-completions/
#   bash, fish          $PREFIX/share/bash-completion/completions/, $PREFIX/share/fish/vendor_completions.d/
#   man page, docs      $PREFIX/share/man/man1/trackwatch.1, $PREFIX/share/doc/trackwatch/ (README, docs/,
#                       config.example.toml)
#   icon, desktop entry $PREFIX/share/icons/hicolor/scalable/apps/trackwatch.svg (the bubbles' icon),
#                       $PREFIX/share/applications/trackwatch.desktop (names the app and its icon for the desktop:
#                       the bubbles' desktop-entry hint)
#   configuration       ${XDG_CONFIG_HOME:-~/.config}/trackwatch/config.toml (mode 0600; personal only, if missing)
# In the unit only ExecStart=, Documentation= and (under $HOME) the BindReadOnlyPaths= of the binary and the icon
# follow PREFIX (%h/.local/… → $PREFIX/…; under $HOME it stays relative to %h): its state paths are the daemon's,
# ~/.local/state/trackwatch, wherever it is installed.
#
# Both actions are idempotent. Exit status: 0 done; 1 failed (message on stderr); 64 usage.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
me=${0##*/}

die() { echo "$me: $*" >&2; exit 1; }
usage() { sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

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

case $PREFIX in
    /usr | /usr/local) layout=system ;;
    *) layout=personal ;;
esac
bin_dir=$DESTDIR$PREFIX/bin
doc_dir=$DESTDIR$PREFIX/share/doc/trackwatch
man_file=$DESTDIR$PREFIX/share/man/man1/trackwatch.1
bash_completion=$DESTDIR$PREFIX/share/bash-completion/completions/trackwatch
fish_completion=$DESTDIR$PREFIX/share/fish/vendor_completions.d/trackwatch.fish
icon_file=$DESTDIR$PREFIX/share/icons/hicolor/scalable/apps/trackwatch.svg
desktop_file=$DESTDIR$PREFIX/share/applications/trackwatch.desktop
if [ $layout = system ]; then
    unit_dir=$DESTDIR$PREFIX/lib/systemd/user
    catalog=$DESTDIR$PREFIX/lib/systemd/catalog/trackwatch.catalog
    if [ "$PREFIX" = /usr ]; then
        zsh_completion=$DESTDIR/usr/share/zsh/vendor-completions/_trackwatch
    else
        zsh_completion=$DESTDIR$PREFIX/share/zsh/site-functions/_trackwatch
    fi
else
    unit_dir=$DESTDIR$config_home/systemd/user
    catalog=$DESTDIR$PREFIX/share/trackwatch/trackwatch.catalog
    zsh_completion=$DESTDIR$PREFIX/share/zsh/site-functions/_trackwatch
fi
unit=$unit_dir/trackwatch.service
config=$config_home/trackwatch/config.toml
system_catalog_dir=/usr/local/lib/systemd/catalog   # read by `journalctl --update-catalog`, like /usr/lib/…

# systemctl --user, only when a user manager answers (not in a package build, not over plain ssh without one).
user_manager() { [ -z "$DESTDIR" ] && systemctl --user show-environment > /dev/null 2>&1; }

# The unit with the binary's and the documentation's paths moved from %h/.local/ to PREFIX, nothing else: the
# state directory (ExecStartPre=, BindPaths=) and the configuration are the daemon's, under the home directory,
# wherever the binary is. The binary's lines are ExecStart= and, when PREFIX is under the home directory (which
# the sandbox replaces by an empty tmpfs), the BindReadOnlyPaths= that puts the binary back; outside the home
# that line stays as it is and binds nothing ("-").
render_unit() {
    local target under_home=""
    case $PREFIX in
        "$HOME"/*) target="%h/$(escape_specifiers "${PREFIX#"$HOME"/}")" under_home=yes ;;
        *) target=$(escape_specifiers "$PREFIX") ;;
    esac
    target=$(printf '%s' "$target" | sed 's/[&|\\]/\\&/g')   # for the sed replacement below
    sed -e "s|^ExecStart=%h/\\.local/|ExecStart=$target/|" \
        -e "s|^Documentation=file:%h/\\.local/|Documentation=file:$target/|" \
        -e "${under_home:+s|^BindReadOnlyPaths=-%h/\\.local/bin/trackwatch\$|BindReadOnlyPaths=-$target/bin/trackwatch|}" \
        -e "${under_home:+s|^BindReadOnlyPaths=-%h/\\.local/share/icons/|BindReadOnlyPaths=-$target/share/icons/|}" \
        "$src/systemd/trackwatch.service"
}
escape_specifiers() { printf '%s' "${1//%/%%}"; }   # a literal % in a path would start a specifier

# The binary without its debug information (87 MB → 12 MB); the symbols stay in the build tree, and
# scripts/deb.sh ships them as a -dbgsym package.
install_binary() {
    install -m 0755 "$1" "$bin_dir/trackwatch.tmp"
    if command -v strip > /dev/null; then
        strip --strip-all --remove-section=.comment --remove-section=.note "$bin_dir/trackwatch.tmp"
    else
        echo "$me: warning: strip (binutils) not found: $bin_dir/trackwatch keeps its debug information" >&2
    fi
    mv -f "$bin_dir/trackwatch.tmp" "$bin_dir/trackwatch"
    echo "installed $bin_dir/trackwatch"
}

do_install() {
    local bin=${BIN:-}
    if [ -z "$bin" ]; then
        command -v "${SWIFT:-swift}" > /dev/null || die "swift not found; set BIN to the directory holding trackwatch"
        bin=$(cd "$src" && "${SWIFT:-swift}" build -c release --show-bin-path)
    fi
    [ -x "$bin/trackwatch" ] || die "$bin/trackwatch not found: build it first (make release)"
    [ -n "$DESTDIR" ] || [ $layout = personal ] || [ "$(id -u)" -eq 0 ] ||
        die "PREFIX=$PREFIX installs for every user: run it as root (sudo make install PREFIX=$PREFIX)"
    case $PREFIX in
        /tmp/* | /var/tmp/*) echo "$me: warning: the unit's PrivateTmp=yes hides $PREFIX from the service" >&2 ;;
    esac

    install -d "$bin_dir" "$unit_dir" "$doc_dir"
    install_binary "$bin/trackwatch"
    render_unit > "$unit.tmp"
    grep -qx "ExecStart=.*/bin/trackwatch run" "$unit.tmp" || { rm -f "$unit.tmp"; die "systemd/trackwatch.service: no ExecStart=%h/.local/bin/trackwatch run to point at $PREFIX/bin"; }
    chmod 0644 "$unit.tmp"
    mv -f "$unit.tmp" "$unit"
    echo "installed $unit ($(grep -m1 '^ExecStart=' "$unit"))"
    local f
    for f in README.md etc/config.example.toml docs/*.md docs/images/*.png; do
        [ -f "$src/$f" ] || continue
        case $f in
            docs/*) install -d "$doc_dir/${f%/*}" && install -m 0644 "$src/$f" "$doc_dir/$f" && echo "installed $doc_dir/$f" ;;
            *) install -m 0644 "$src/$f" "$doc_dir/${f##*/}" && echo "installed $doc_dir/${f##*/}" ;;
        esac
    done
    # What the desktop shows for trackwatch's bubbles: the icon (named "trackwatch" in each bubble) and the
    # desktop entry their desktop-entry hint names, so that GNOME groups them and settings can find the app.
    install -d "${icon_file%/*}" "${desktop_file%/*}"
    install -m 0644 "$src/data/icons/hicolor/scalable/apps/trackwatch.svg" "$icon_file"
    echo "installed $icon_file"
    local exec_path
    exec_path=$(printf '%s' "$PREFIX/bin/trackwatch" | sed 's/[&|\\]/\\&/g')
    # Exec= and TryExec= by absolute path: GLib (GNOME) ignores an entry whose program is not found, and the
    # session's PATH often lacks $PREFIX/bin.
    sed -e "s|^Exec=trackwatch |Exec=$exec_path |" -e "s|^TryExec=trackwatch\$|TryExec=$exec_path|" \
        "$src/data/trackwatch.desktop" > "$desktop_file.tmp"
    chmod 0644 "$desktop_file.tmp"
    mv -f "$desktop_file.tmp" "$desktop_file"
    echo "installed $desktop_file"
    # Shell completions, generated from the command definitions by the binary itself.
    local shell target
    for shell in bash zsh fish; do
        case $shell in bash) target=$bash_completion ;; zsh) target=$zsh_completion ;; fish) target=$fish_completion ;; esac
        install -d "${target%/*}"
        # A completion file is sourced, not run: no #! line.
        "$bin/trackwatch" --generate-completion-script "$shell" | sed '1{/^#!/d}' > "$target.tmp" &&
            chmod 0644 "$target.tmp" && mv -f "$target.tmp" "$target" && echo "installed $target"
    done
    # The man page, generated from the same definitions (make man; MAN=path to use another).
    local man=${MAN:-$src/.build/man/trackwatch.1}
    if [ -f "$man" ]; then
        install -d "${man_file%/*}"
        # generate-manual keeps the blank lines of the help text, which roff warns about: make them paragraphs.
        sed 's/^$/.Pp/' "$man" > "$man_file.tmp" && chmod 0644 "$man_file.tmp" && mv -f "$man_file.tmp" "$man_file"
        echo "installed $man_file"
    fi
    if [ -f "$src/systemd/trackwatch.catalog" ]; then
        install -d "${catalog%/*}"
        install -m 0644 "$src/systemd/trackwatch.catalog" "$catalog"
        if [ $layout = personal ]; then
            echo "installed $catalog (for journalctl -x: sudo make install-catalog)"
        else
            echo "installed $catalog"
            # A package's catalog is indexed by systemd's dpkg trigger; /usr/local's by hand.
            [ -n "$DESTDIR" ] || journalctl --update-catalog
        fi
    fi

    [ -z "$DESTDIR" ] || return 0
    if [ $layout = system ]; then
        echo
        echo "Next, each user who wants trackwatch: write ~/.config/trackwatch/config.toml (example:"
        echo "$doc_dir/config.example.toml), then"
        echo "    systemctl --user daemon-reload"
        echo "    systemctl --user enable --now trackwatch"
        return 0
    fi
    if [ -e "$config" ]; then
        echo "kept your configuration $config"
    elif [ -f "$src/etc/config.example.toml" ]; then
        install -d -m 0700 "${config%/*}"
        install -m 0600 "$src/etc/config.example.toml" "$config"
        echo "created $config from the example (mode 0600): uncomment your tracker's table and name its token file"
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
    [ -n "$DESTDIR" ] || [ $layout = personal ] || [ "$(id -u)" -eq 0 ] ||
        die "PREFIX=$PREFIX was installed for every user: run it as root (sudo make uninstall PREFIX=$PREFIX)"
    if [ $layout = personal ] && user_manager; then
        if systemctl --user disable --now trackwatch.service 2> /dev/null; then
            echo "stopped and disabled trackwatch.service"
        fi
    fi
    if [ $layout = personal ]; then
        # `disable` removes it when a manager answers; by hand when none does.
        rm -f "$unit_dir/default.target.wants/trackwatch.service"
        rmdir "$unit_dir/default.target.wants" 2> /dev/null || true
    fi
    local f
    for f in "$bin_dir/trackwatch" "$unit" "$doc_dir/README.md" "$doc_dir/config.example.toml" "$doc_dir"/docs/*.md \
        "$doc_dir"/docs/images/*.png "$catalog" "$man_file" "$bash_completion" "$zsh_completion" "$fish_completion" \
        "$icon_file" "$desktop_file"; do
        [ -e "$f" ] || continue
        rm -f "$f"
        echo "removed $f"
    done
    rmdir "$doc_dir/docs/images" "$doc_dir/docs" "$doc_dir" "$DESTDIR$PREFIX/share/trackwatch" 2> /dev/null || true
    if [ $layout = system ]; then
        [ -n "$DESTDIR" ] || journalctl --update-catalog
        echo "each user who ran it: systemctl --user disable --now trackwatch (configuration and state stay in their homes)"
        return 0
    fi
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
