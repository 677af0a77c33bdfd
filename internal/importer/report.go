package importer

// MaxRejects is how many rejected rows a report names in full; beyond it only the counts
// per reason grow, so a report stays small whatever the file holds.
const MaxRejects = 200

// Report tells what an import did, or what a dry run would do.
type Report struct {
	Rows    int64 `json:"rows" doc:"data rows read"`
	Samples int64 `json:"samples" doc:"samples the valid rows make (a wide row makes one per device)"`
	// Stored: new samples (dry run: that would be stored).
	Stored int64 `json:"stored"`
	// Duplicates and Conflicts: samples at an instant the device already has, the same
	// reading or a different one. The stored reading is kept: an import never overwrites.
	Duplicates int64 `json:"duplicates"`
	Conflicts  int64 `json:"conflicts"`
	// Overlapping (dry run): samples at or before the device's stored history inside the raw
	// window; the import stores those at instants the device has no reading for and counts
	// the others as duplicates or conflicts.
	Overlapping int64 `json:"overlapping"`
	// Skipped: samples at or before the device's stored history and older than the raw
	// window. The roll-ups of those days already hold what the device sent; nothing changes.
	Skipped      int64            `json:"skipped"`
	RejectedRows int64            `json:"rejectedRows"`
	Reasons      map[string]int64 `json:"reasons" doc:"rejected rows per reason"`
	Rejects      []Reject         `json:"rejects" doc:"the first rejected rows"`
}

// Reject names a rejected row.
type Reject struct {
	File   string `json:"file"`
	Row    int64  `json:"row" doc:"1-based row of the file, the header counted (a spreadsheet's row number)"`
	Reason string `json:"reason"`
	Column string `json:"column,omitempty"`
}

func (r *Report) reject(file string, row int64, reason, column string) {
	r.RejectedRows++
	if r.Reasons == nil {
		r.Reasons = map[string]int64{}
	}
	r.Reasons[reason]++
	if len(r.Rejects) < MaxRejects {
		r.Rejects = append(r.Rejects, Reject{File: file, Row: row, Reason: reason, Column: column})
	}
}

// merge adds a part's counts (the rows of a later slice) to r.
func (r *Report) merge(p *Report) {
	r.Rows += p.Rows
	r.Samples += p.Samples
	r.Stored += p.Stored
	r.Duplicates += p.Duplicates
	r.Conflicts += p.Conflicts
	r.Overlapping += p.Overlapping
	r.Skipped += p.Skipped
	r.RejectedRows += p.RejectedRows
	for k, n := range p.Reasons {
		if r.Reasons == nil {
			r.Reasons = map[string]int64{}
		}
		r.Reasons[k] += n
	}
	for _, x := range p.Rejects {
		if len(r.Rejects) < MaxRejects {
			r.Rejects = append(r.Rejects, x)
		}
	}
}
