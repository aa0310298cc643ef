# trackwatch — see README.md. `make demo` and `make test` work on a fresh Debian 12 / Ubuntu machine.
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
SWIFT_FLAGS ?=
BIN = $(shell $(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)

.PHONY: all deps build release demo test clean

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

demo: build
	BIN=$(BIN) scripts/demo.sh

# Builds everything, then runs the whole suite: unit tests, the binaries against compass-sim over real HTTP,
# notifications through a real D-Bus notification server, journal entries through libsystemd.
test: deps
	scripts/test.sh

clean:
	rm -rf .build
