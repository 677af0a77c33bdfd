package sunspec_test

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/helio-energy/helio/internal/sunspec"
	"github.com/helio-energy/helio/internal/sunspec/sunspectest"
)

// Whatever a device holds after the marker — lengths past the end, unknown models, groups
// cut short — discovery and decoding end without a panic.
func FuzzDeviceImage(f *testing.F) {
	seed := []uint16{1, 66}
	seed = append(seed, make([]uint16, 66)...)
	seed = append(seed, 160, 50, 0, 0, 0, 0, 0, 0, 3, 0)
	seed = append(seed, 0xFFFF, 0)
	b := make([]byte, 2*len(seed))
	for i, w := range seed {
		binary.BigEndian.PutUint16(b[2*i:], w)
	}
	f.Add(b)
	f.Add([]byte{0, 103, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		im := sunspectest.NewImage()
		words := make([]uint16, len(data)/2)
		for i := range words {
			words[i] = binary.BigEndian.Uint16(data[2*i:])
		}
		im.Set(40000, 0x5375, 0x6E53)
		im.Set(40002, words...)
		l, err := sunspec.Discover(imageReader{im})
		if err != nil {
			return
		}
		blocks, err := sunspec.Read(imageReader{im}, l, true)
		if err != nil {
			return
		}
		_ = sunspec.Readings(blocks)
		for _, typ := range []string{"inverter", "battery", "storage", "meter"} {
			_ = sunspec.ToSample(1, time.Unix(0, 0), typ, blocks, &sunspec.Accumulators{})
		}
	})
}
