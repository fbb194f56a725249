# A virtual screen for the checks, sourced: `start_xvfb WxH` starts an
# Xvfb of that size (24-bit colour) and exports its DISPLAY; `stop_xvfb`
# ends it and waits until it is gone. (.ci/xvfb runs one command in one.)
#
# Not xvfb-run -a: it takes the first display number without a lock file,
# and an Xvfb it had just stopped, still ending (under load, while it
# reset for its last client) held that number without one, so the next
# check's game reached the old server, which refused it
# (XOpenDisplayFailed, CI's screen reader check, one start in ten or so
# here with the cores busy). Here Xvfb picks the number itself among those
# it can listen on (-displayfd), never resets (-noreset: between clients,
# as when the accessibility bus looks at the screen and leaves before the
# game starts), and is waited for when stopped.
xvfb_pid=""
start_xvfb() {
  local size="$1" fifo
  fifo="$(mktemp -u)"
  mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp -noreset 3>"$fifo" 2>/dev/null &
  xvfb_pid=$!
  local display=""
  # The number comes once Xvfb listens; nothing comes if it fails.
  read -r -t 60 display <"$fifo" || true
  rm -f "$fifo"
  if [ -z "$display" ]; then
    echo "Xvfb did not start (a screen of $size)" >&2
    stop_xvfb
    return 1
  fi
  export DISPLAY=":$display"
}
stop_xvfb() {
  [ -n "$xvfb_pid" ] || return 0
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
  xvfb_pid=""
}
