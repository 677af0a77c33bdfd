#!/bin/sh
# make bench-large: 10,000 stations x 20 devices on PostgreSQL -- the dashboard calls with the
# answer cache off, two 5-minute rounds of every device over MQTT, and two replicas against
# one -- written as the section "large" at the end of docs/performance.md.
#
# The rounds go through a Mosquitto of the run's own on 127.0.0.1:1884 with a window of 200
# messages (the machine's broker keeps Mosquitto's default of 20, with which a round of
# 200,020 devices in one message per collector does not keep up: docs/perf-readpath.md).
# The replicas are measured over 60-second windows: a replica at this size collects its
# heap of about 470 MiB every 25 s or so, most of a second of its quarter core each time,
# and 10-second windows measured where the collections fell (docs/perf-replicas.md).
# The fleet (20 to 60 minutes to build) stays in $BENCH_LARGE_WORK and its PostgreSQL database,
# and the next run reuses it.
set -eu
bin=$1
work=${BENCH_LARGE_WORK:-/var/tmp/helio-bench-large}
port=${BENCH_LARGE_MQTT_PORT:-1884}
mkdir -p "$work/mosquitto"
conf="$work/mosquitto/mosquitto.conf"
cat >"$conf" <<EOF
listener $port 127.0.0.1
allow_anonymous true
max_inflight_messages 200
max_queued_messages 0
persistence false
log_dest stderr
log_type error
EOF
mosquitto -c "$conf" 2>"$work/mosquitto/log" &
broker=$!
trap 'kill $broker 2>/dev/null || true' EXIT INT TERM
sleep 1
if ! kill -0 $broker 2>/dev/null; then
	echo "bench-large: the run's Mosquitto did not start on 127.0.0.1:$port:" >&2
	cat "$work/mosquitto/log" >&2
	exit 1
fi
${GO:-go} run ./bench -bin "$bin" -out docs/performance.md -section large \
	-title "10,000 stations on PostgreSQL (make bench-large)" \
	-only scale,replicas -scale-stations 10000 -scale-days 1 -scale-db postgres \
	-scale-mqtt "mqtt://127.0.0.1:$port" -scale-mqtt-inflight 200 \
	-replica-stations 10000 -replica-pairs 3 -replica-duration 60s -work "$work" -keep
