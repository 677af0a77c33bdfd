// Package crashtest proves that telemetry ingest survives crashes: its test builds the
// helio binary, ingests over MQTT and HTTP while killing the server with SIGKILL at
// random moments and restarting it, and then checks that every acknowledged sample is
// stored exactly once and that every roll-up equals a brute-force computation from the
// stored samples. Run it with `go test ./internal/crashtest` (it needs Mosquitto).
package crashtest
