// Package replicatest runs two helio replicas on one PostgreSQL schema, one NATS server and
// one MQTT broker, and checks what a user of a several-replica deployment relies on
// (docs/deploy.md): samples, alarms and session ends cross replicas, and killing one loses no
// acknowledged sample.
package replicatest
