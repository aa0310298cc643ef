# trackwatch — see README.md. `make demo` and `make test` work on a fresh Debian 12 / Ubuntu 22.04+ machine with
# Swift 6 on the PATH: each installs the Debian packages it needs (scripts/install-deps.sh), and only those.
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
SWIFT_FLAGS ?=
BIN = $(shell $(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)
RELEASE_BIN = $(shell $(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)

.PHONY: all build release demo test e2e man deb bench install uninstall install-catalog uninstall-catalog clean

all: build

build:
	scripts/install-deps.sh build
	$(SWIFT) build $(SWIFT_FLAGS)

# The Swift runtime linked statically: runs without a Swift toolchain, and ~9 MB less resident memory than the
# shared libraries (docs/performance.md).
release:
	scripts/install-deps.sh build
	$(SWIFT) build -c release --static-swift-stdlib $(SWIFT_FLAGS)

# compass-sim, trackwatch check around colleagues' actions, then the daemon: every output explained.
demo: build
	BIN=$(BIN) scripts/demo.sh

# Everything, as CI runs it (bash .ci/run): the debug build and XCTest, and as root the release build, the
# Debian package with lintian, and the package under a real systemd --user manager (docs/testing.md).
test:
	scripts/install-deps.sh test
	scripts/test.sh

# The user unit under a real systemd --user manager, from the build tree's binary (root only). `make test` runs
# it against the installed package instead (DEB=dist/trackwatch_….deb scripts/e2e-user-unit.sh).
e2e: build
	BIN="$(BIN)" scripts/e2e-user-unit.sh

# The man page, generated from the command definitions by swift-argument-parser's generate-manual (through
# scripts/man.sh, which keeps the characters generate-manual drops).
man: release
	$(SWIFT) build -c release --product generate-manual $(SWIFT_FLAGS)
	mkdir -p .build/man
	scripts/man.sh "$(RELEASE_BIN)/generate-manual" "$(RELEASE_BIN)/trackwatch" .build/man

# dist/trackwatch_<version>-1_<arch>.deb (and its -dbgsym): installs on Debian 12 / Ubuntu 22.04+ without Swift.
deb: release man
	scripts/install-deps.sh deb
	BIN="$(RELEASE_BIN)" scripts/deb.sh

# Performance figures (docs/performance.md): a release build against compass-sim; a few minutes.
bench:
	scripts/install-deps.sh build
	scripts/bench.sh

# Installs the binary (stripped) into $(PREFIX)/bin, the user unit, completions, the man page, the docs, the
# example config and the catalog; prints the next steps. PREFIX=/usr/local (as root) installs for every user.
install: release man
	PREFIX="$(PREFIX)" BIN="$(RELEASE_BIN)" scripts/install.sh install

uninstall:
	PREFIX="$(PREFIX)" scripts/install.sh uninstall

# journalctl -x explanations, system-wide: sudo make install-catalog
install-catalog:
	scripts/install.sh install-catalog

uninstall-catalog:
	scripts/install.sh uninstall-catalog

clean:
	rm -rf .build dist
