package blob_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/store"
	"github.com/helio-energy/helio/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := blob.NewDB(db)
		data := []byte("\x89PNG\r\n\x1a\n binary \x00 bytes")
		m, err := s.Put(ctx, blob.Meta{OrgID: 7, Kind: "avatar", Name: "me.png", ContentType: "image/png"}, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.ID) != 32 || m.Size != int64(len(data)) || len(m.SHA256) != 64 {
			t.Fatalf("meta = %+v", m)
		}
		got, body, err := s.Get(ctx, 7, m.ID)
		if err != nil || !bytes.Equal(body, data) || got.Name != "me.png" || got.ContentType != "image/png" || got.SHA256 != m.SHA256 {
			t.Fatalf("get = %+v %q %v", got, body, err)
		}
		// Another organisation cannot read or delete it.
		if _, _, err := s.Get(ctx, 8, m.ID); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("other org get: %v", err)
		}
		if err := s.Delete(ctx, 8, m.ID); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("other org delete: %v", err)
		}
		if err := s.Delete(ctx, 7, m.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Get(ctx, 7, m.ID); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
	})
}
