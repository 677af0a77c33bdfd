// Package abusetest attacks the real helio binary the way a hostile or broken client
// would: per endpoint of the OpenAPI document, oversized bodies and parameters, deep
// JSON, wrong types, huge lists and unknown fields; requests trickled byte by byte; many
// concurrent sign-ins; many WebSockets of one user. No call may answer 5xx (503 for
// capacity aside), the server must stay up, and its heap (after a collection) and
// goroutines must come back to where they were. Run it with `go test ./internal/abusetest`.
package abusetest
