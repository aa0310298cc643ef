# trackwatch — see README.md. `make demo` and `make test` work on a fresh Debian 12 / Ubuntu machine.
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
SWIFT_FLAGS ?=
BIN = $(shell $(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)

.PHONY: all deps build release demo test e2e man bench install uninstall install-catalog uninstall-catalog clean

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# The Swift runtime linked statically: ~9 MB less resident memory than the shared libraries (see README).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib $(SWIFT_FLAGS)

demo: build
	BIN=$(BIN) scripts/demo.sh

# Builds everything, then runs the whole suite: unit tests, the binaries against compass-sim over real HTTP,
# notifications through a real D-Bus notification server, journal entries through libsystemd.
test: deps
	scripts/test.sh

# The installed user unit under a real systemd --user manager (root only, as CI is). `make test` runs it too.
e2e: build
	BIN="$(BIN)" scripts/e2e-user-unit.sh

# The man page, generated from the command definitions by swift-argument-parser's generate-manual.
man: release
	$(SWIFT) build -c release --product generate-manual $(SWIFT_FLAGS)
	mkdir -p .build/man
	"$$($(SWIFT) build -c release --show-bin-path)/generate-manual" "$$($(SWIFT) build -c release --show-bin-path)/trackwatch" \
		--output-directory .build/man

# Performance figures (README, Performance): a release build against compass-sim; a few minutes.
bench: deps
	scripts/bench.sh

# Installs the binary into $(PREFIX)/bin, the user unit, completions, the man page, the example config and the
# catalog; prints the next steps.
install: release man
	PREFIX="$(PREFIX)" BIN="$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)" scripts/install.sh install

uninstall:
	PREFIX="$(PREFIX)" scripts/install.sh uninstall

# journalctl -x explanations, system-wide: sudo make install-catalog
install-catalog:
	scripts/install.sh install-catalog

uninstall-catalog:
	scripts/install.sh uninstall-catalog

clean:
	rm -rf .build
