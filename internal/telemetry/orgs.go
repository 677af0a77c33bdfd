package telemetry

import "context"

// OrgsOf returns the organisations whose devices the samples are of (each once), from the
// writer's device registry.
func (w *Writer) OrgsOf(ctx context.Context, samples []Sample) ([]int64, error) {
	seen := map[int64]bool{}
	var out []int64
	last := int64(-1)
	for i := range samples {
		id := samples[i].DeviceID
		if id == last {
			continue
		}
		last = id
		d, err := w.reg.device(ctx, id)
		if err != nil {
			return nil, err
		}
		if d != nil && !seen[d.OrgID] {
			seen[d.OrgID] = true
			out = append(out, d.OrgID)
		}
	}
	return out, nil
}
