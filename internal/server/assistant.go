package server

import (
	"net/http"
	"time"

	"github.com/helio-energy/helio/internal/assistant"
	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/config"
	"github.com/helio-energy/helio/internal/store"
)

// assistantRoutes wires the document store and the question answering.
func (s *Server) assistantRoutes(cfg *config.Config, db *store.DB) {
	idx, err := assistant.OpenIndex("")
	if err != nil {
		panic(err) // an in-memory index with a fixed mapping cannot fail to open
	}
	blobs := blob.NewDB(db)
	s.Library = &assistant.Library{DB: db, Blobs: blobs, Index: idx}
	if cfg.EmbedURL != "" {
		s.Library.Embed = &assistant.Endpoint{URL: cfg.EmbedURL, Model: cfg.EmbedModel, Key: cfg.EmbedKey,
			HTTP: &http.Client{Timeout: time.Minute}}
	}
	svc := &assistant.Service{DB: db, Blobs: blobs, Library: s.Library,
		Fleet: &assistant.SQLFleet{DB: db, Reader: s.Reader, Telemetry: s.Figures}}
	if cfg.LLMURL != "" {
		// no client timeout: an answer streams as long as it takes, and stops when the asker goes
		svc.Chat = &assistant.Endpoint{URL: cfg.LLMURL, Model: cfg.LLMModel, Key: cfg.LLMKey, HTTP: &http.Client{}}
	}
	svc.Routes(s.API)
}
