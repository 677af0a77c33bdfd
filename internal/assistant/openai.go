package assistant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Endpoint is an OpenAI-compatible server (Ollama, vLLM, llama.cpp server or a hosted one):
// its base URL (…/v1), model and optional API key.
type Endpoint struct {
	URL   string
	Model string
	Key   string
	HTTP  *http.Client
}

// UpstreamError is a non-OK answer from the endpoint, kept with its status.
type UpstreamError struct {
	Status int
	Body   string
}

func (e *UpstreamError) Error() string {
	return fmt.Sprintf("assistant: endpoint answered %d: %s", e.Status, e.Body)
}

func (e *Endpoint) client() *http.Client {
	if e.HTTP != nil {
		return e.HTTP
	}
	return http.DefaultClient
}

func (e *Endpoint) post(ctx context.Context, path string, body any) (*http.Response, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(e.URL, "/")+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.Key != "" {
		req.Header.Set("Authorization", "Bearer "+e.Key)
	}
	res, err := e.client().Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		res.Body.Close()
		return nil, &UpstreamError{Status: res.StatusCode, Body: strings.TrimSpace(string(msg))}
	}
	return res, nil
}

// Embed returns one vector per input text (the /embeddings call).
func (e *Endpoint) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	res, err := e.post(ctx, "/embeddings", map[string]any{"model": e.Model, "input": texts})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<20)).Decode(&out); err != nil {
		return nil, fmt.Errorf("assistant: embeddings answer: %w", err)
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index >= 0 && d.Index < len(vecs) {
			vecs[d.Index] = d.Embedding
		}
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, fmt.Errorf("assistant: embeddings answer has no vector for input %d", i)
		}
	}
	return vecs, nil
}

// ChatMessage is one turn of a conversation.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Stream asks the chat endpoint with stream:true and calls emit with each piece of text as
// the server-sent events arrive. Cancelling ctx closes the upstream connection at once.
func (e *Endpoint) Stream(ctx context.Context, msgs []ChatMessage, emit func(string) error) error {
	res, err := e.post(ctx, "/chat/completions", map[string]any{"model": e.Model, "messages": msgs, "stream": true})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue // comments, event names, blank separators
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			return nil
		}
		var ev struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return fmt.Errorf("assistant: chat stream: %w", err)
		}
		if ev.Error != nil {
			return &UpstreamError{Status: http.StatusBadGateway, Body: ev.Error.Message}
		}
		for _, c := range ev.Choices {
			if c.Delta.Content != "" {
				if err := emit(c.Delta.Content); err != nil {
					return err
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return ctx.Err()
}
