# What the demo scripts (scripts/demo.sh, scripts/demo-devices.sh) print with: section titles and narration,
# bold and dim on a terminal, plain text in a log. Sourced, not run.
if [ -t 1 ]; then bold=$'\e[1m' dim=$'\e[2m' off=$'\e[0m'; else bold="" dim="" off=""; fi
title() { printf '\n%s== %s%s\n' "$bold" "$*" "$off"; }
say() { printf '%s%s%s\n' "$dim" "$*" "$off" | fold -s -w 110; }
