package httpapi

// OnWrite registers fn to be told, when a signed-in caller's non-GET call has been
// handled (before its answer is written, and again after a raw handler), which
// organisation wrote. State kept in memory from the database drops what may have changed.
// Register before serving.
func (a *API) OnWrite(fn func(orgID int64)) { a.onWrite = append(a.onWrite, fn) }

func (a *API) wrote(orgID int64) {
	for _, fn := range a.onWrite {
		fn(orgID)
	}
}
