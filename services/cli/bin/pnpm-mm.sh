#!/bin/sh
# `pnpm mm` (the root package.json script): the command line run from the sources, as a job of its
# own when it holds the terminal, so that Ctrl-C makes `pnpm mm` exit 130 as `mm` itself does.
#
# Ctrl-C signals the terminal's whole foreground process group. pnpm 9, in that group, then exits
# 0 when its script ends, whatever the script's exit code (pnpm/pnpm#9626, fixed in pnpm 10). With
# job control on (set -m) mm runs in a process group of its own that the terminal's signals reach
# alone: mm stops, prints what it knows and exits 130, and pnpm passes 130 on like any exit code.
# Only from the foreground ('+' in ps's state): a shell in the background that turns job control on
# is stopped by the terminal, and with no terminal there is no Ctrl-C to keep from pnpm.
if ps -o stat= -p $$ 2>/dev/null | grep -q '+'; then set -m; fi
node --import tsx services/cli/src/main.ts "$@"
status=$?
# Ctrl-Z stops mm alone (128 + SIGTSTP): pnpm's job cannot stop with it, so mm goes on at once.
while [ "$status" -eq 148 ]; do
  fg >/dev/null 2>&1
  status=$?
done
exit "$status"
