#!/usr/bin/env bash
# The man page trackwatch(1), generated from the command definitions by swift-argument-parser's generate-manual
# (`make man`, scripts/test.sh, scripts/e2e-user-unit.sh):
#
#     scripts/man.sh GENERATE_MANUAL TRACKWATCH OUTPUT_DIRECTORY     writes OUTPUT_DIRECTORY/trackwatch.1
#
# Why not generate-manual alone: it drops every character that is not ASCII (its mdoc escaping keeps only
# `character.isASCII`, Tools/generate-manual/MDoc/String+Escaping.swift), so the help texts' em dashes, arrows,
# ✔ ⚠ ✘ and accented names vanished from the page ("asks each its questions  on a server"). Here the help dump
# it reads has each such character as an ASCII marker, and the page has each marker replaced by the character's
# roff escape \[uXXXX], which groff (man-db) and mandoc render in any locale ("--" where a terminal has no em dash).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 GENERATE_MANUAL TRACKWATCH OUTPUT_DIRECTORY" >&2; exit 2; }
generate=$1 tool=$2 out=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/trackwatch-man.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The marker: SUB (U+001A, written \u001a in the JSON), U, the code point in hex, SUB. No help text holds a SUB.
"$tool" --experimental-dump-help |
    perl -CSD -pe 's/([^\x00-\x7F])/sprintf("\\u001aU%04X\\u001a", ord $1)/ge' > "$work/help.json"
# generate-manual runs the tool it is given with --experimental-dump-help: this one prints the marked dump.
printf '#!/bin/sh\nexec cat %q\n' "$work/help.json" > "$work/trackwatch"
chmod +x "$work/trackwatch"
"$generate" "$work/trackwatch" --output-directory "$work" > /dev/null
perl -pe 's/\x1aU([0-9A-F]{4,6})\x1a/\\[u$1]/g' "$work/trackwatch.1" > "$work/page"
if grep -q $'\x1a' "$work/page"; then
    echo "$0: a character of the help text was left marked in the page" >&2
    exit 1
fi
install -m 0644 "$work/page" "$out/trackwatch.1"
