# Tiny watchdog between Patchbay and `opencode serve` on Linux and macOS (the POSIX-sh twin of child-guard.mjs, which
# Windows uses): runs the binary and stops it when Patchbay goes away, even if Patchbay was SIGKILLed. A shell costs
# a few MB where a second Node costs ≈ 40 MB. Plain POSIX sh (Debian's dash, macOS's bash-as-sh); it must not do
# anything else.
#
# Run as `/bin/sh child-guard.sh <binary> [args...]`, leading its own process group (spawned detached), with stdio
# [Patchbay's messages, OpenCode's stdout, OpenCode's stderr, the guard's reports]:
#   fd 3 (to Patchbay), one line each: `spawned <pid>` | `error <code> <message>` | `exit <code|-> <signal|->`
#   stdin (from Patchbay): `record-pid` lines; end of file means Patchbay is gone (exit, crash or SIGKILL: the kernel
#   closes its end of the pipe), and OpenCode is stopped.
# SIGTERM, SIGINT and SIGHUP stop OpenCode too: its process group gets SIGTERM, then SIGKILL after 3 s. When OpenCode
# exits, what it left in its group is SIGKILLed, the pid file is removed if it names it, the exit is reported and the
# guard exits with OpenCode's code (1 when a signal ended it; as in any shell, a status above 128 reads as a signal). OpenCode runs in its own process group (signals go to
# the whole group, helpers included); its pid is recorded in $PATCHBAY_OPENCODE_PIDFILE while it runs, so Patchbay
# can stop a leftover one if this guard is SIGKILLed; with PATCHBAY_GUARD_DEFER_PIDFILE=1 (a recycle's replacement:
# the file names the current OpenCode) only on `record-pid`.
#
# Besides the guard, one helper runs in its process group: the stdin reader (a subshell; `wait` needs the main shell).
# While a stop waits out its grace, a timer subshell too. Patchbay's SIGKILL of the guard goes to the whole group.

pid=
launched=
stopping=
early_stop=
woken=

# One report line to Patchbay; a closed pipe (Patchbay gone) is not an error here.
say() { printf '%s\n' "$*" 2>/dev/null >&3; }

write_pid_file() {
  [ -n "${PATCHBAY_OPENCODE_PIDFILE:-}" ] || return 0
  printf '{"pid":%s,"guard":%s,"parent":%s,"startedAt":%s000}' "$pid" "$$" "$PPID" "$(date +%s)" \
    2>/dev/null >"$PATCHBAY_OPENCODE_PIDFILE"
}

remove_pid_file() {
  [ -n "${PATCHBAY_OPENCODE_PIDFILE:-}" ] || return 0
  recorded=
  IFS= read -r recorded <"$PATCHBAY_OPENCODE_PIDFILE" 2>/dev/null
  case $recorded in
  *\"pid\":"$pid",* | *\"pid\":"$pid"\}*) rm -f "$PATCHBAY_OPENCODE_PIDFILE" ;;
  esac
}

# Signals OpenCode's whole process group, else OpenCode itself.
signal_opencode() { kill -"$1" -"$pid" 2>/dev/null || kill -"$1" "$pid" 2>/dev/null; }

stop() {
  woken=1
  if [ -z "$launched" ]; then
    early_stop=1
    return 0
  fi
  [ -z "$stopping" ] || return 0
  stopping=1
  signal_opencode TERM
  (
    sleep 3
    signal_opencode KILL
  ) </dev/null >/dev/null 2>&1 3>&- &
}

# A group signal from here must never reach Patchbay's group.
if ! kill -0 -$$ 2>/dev/null; then
  say "error EINVAL child-guard.sh must lead its own process group (spawn it detached)"
  exit 2
fi
if [ -z "${1:-}" ]; then
  say "error EINVAL child-guard: no binary given"
  exit 2
fi
case $1 in
*/*) binary=$1 ;;
*) binary=$(command -v "$1") || binary= ;;
esac
if [ -z "$binary" ] || [ ! -f "$binary" ]; then
  say "error ENOENT spawn $1 ENOENT"
  exit 127
elif [ ! -x "$binary" ]; then
  say "error EACCES spawn $1 EACCES"
  exit 127
fi

trap stop TERM INT HUP USR1

# OpenCode in a process group of its own, stdin from /dev/null, without the report pipe. setsid(1) on Linux; job
# control (`set -m`) where the shell grants it without a terminal (bash as macOS's sh; dash refuses); perl else.
# dash starts a background command with SIGINT and SIGQUIT ignored; GNU env (coreutils 8.31+) puts them back. Without
# it they stay ignored, which is harmless: nobody sends those to OpenCode (its own session; Patchbay and this guard
# stop it with SIGTERM, SIGKILL), and Bun resets every signal for what OpenCode starts.
if command -v setsid >/dev/null 2>&1; then
  if env --default-signal=INT,QUIT true 2>/dev/null; then
    setsid env --default-signal=INT,QUIT "$@" </dev/null 3>&- &
  else
    setsid "$@" </dev/null 3>&- &
  fi
  pid=$!
else
  set -m 2>/dev/null
  case $- in
  *m*)
    "$@" </dev/null 3>&- &
    pid=$!
    set +m
    ;;
  *)
    if ! command -v perl >/dev/null 2>&1; then
      say "error ENOSYS child-guard.sh: no setsid, job control or perl to give OpenCode its own process group"
      exit 127
    fi
    perl -e 'setpgrp(0, 0); exec { $ARGV[0] } @ARGV or die "child-guard: cannot run $ARGV[0]: $!\n"' "$@" \
      </dev/null 3>&- &
    pid=$!
    ;;
  esac
fi

# Until OpenCode leads its group (setsid or perl has run), a signal to it could reach the forked shell before its
# exec, which swallows signals the guard traps: wait for the group, a bounded spin (≈ 1–10 ms; stops come after it).
n=0
while [ "$n" -lt 20000 ] && ! kill -0 -"$pid" 2>/dev/null; do n=$((n + 1)); done
launched=1

# From here on a write to a closed pipe must not kill the guard (OpenCode, started above, keeps the default).
trap '' PIPE
umask 077
[ "${PATCHBAY_GUARD_DEFER_PIDFILE:-}" = 1 ] || write_pid_file
say "spawned $pid"

# The stdin reader: `record-pid` (this OpenCode became the current one, or the file was lost) rewrites the pid file;
# end of file (Patchbay gone) wakes the guard with USR1 (its pid cannot be reused while the reader is in its group;
# not to the group: OpenCode may not have left it yet). Its stdin goes through fd 4: a background command's own stdin
# is /dev/null (dash even for an explicit `<&0`).
exec 4<&0
(
  while IFS= read -r line; do
    case $line in
    record-pid) kill -0 "$pid" 2>/dev/null && write_pid_file ;;
    esac
  done
  kill -USR1 $$
) <&4 >/dev/null 2>&1 3>&- 4<&- &
exec 4<&-

[ -z "$early_stop" ] || stop

# `wait` returns early (above 128) when a trapped signal arrives; then wait again. If the signal came just after
# OpenCode's exit was collected, the second wait knows no such job (127) and the first status stands.
woken=
wait "$pid" 2>/dev/null
status=$?
while [ -n "$woken" ]; do
  woken=
  wait "$pid" 2>/dev/null
  again=$?
  if [ "$again" -eq 127 ] && ! kill -0 "$pid" 2>/dev/null; then break; fi
  status=$again
done

# Helpers OpenCode left in its group go with it; then the guard's own helpers (reader, timer and its sleep) go, by a
# signal the guard never traps: a helper still starting up would swallow a trapped one.
stopping=1
kill -KILL -"$pid" 2>/dev/null
trap '' USR2
kill -USR2 0 2>/dev/null
remove_pid_file
if [ "$status" -gt 128 ] && name=$(kill -l "$status" 2>/dev/null); then
  say "exit - SIG$name"
  exit 1
fi
say "exit $status -"
exit "$status"
