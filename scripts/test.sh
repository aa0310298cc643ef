#!/usr/bin/env bash
# The whole test suite. Builds the package and its tests, then runs XCTest; the last line is XCTest's count.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build --disable-swift-testing 2>&1 | tee /tmp/trackwatch-test.log | grep -vE '^Test Case .* (started|passed)' 
