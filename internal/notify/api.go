package notify

import (
	"errors"
	"net/http"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/org"
	"github.com/helio-energy/helio/internal/store"
)

// Service is the administrator's calls of webhooks.
type Service struct {
	Store  *Store
	Outbox *Outbox
	Worker *Worker
}

// TestSent answers a "send test".
type TestSent struct {
	DeliveryID string `json:"deliveryId"`
}

// Routes registers the calls (administrators only, their organisation's webhooks only).
func (s *Service) Routes(api *httpapi.API) {
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/webhook/list", Tag: "webhook", Summary: "The organisation's webhooks, with their last delivery's outcome",
		Access: httpapi.Admin, Resp: []Webhook{}, Handle: s.list})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/webhook/add", Tag: "webhook", Summary: "Add a webhook (its signing secret is answered once)",
		Access: httpapi.Admin, Body: WebhookInput{}, Resp: Webhook{}, Handle: s.add})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/webhook/edit/{id}", Tag: "webhook", Summary: "Change a webhook, or make it a new signing secret",
		Access: httpapi.Admin, Body: WebhookInput{}, Resp: Webhook{}, Handle: s.edit})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/webhook/delete/{id}", Tag: "webhook", Summary: "Delete a webhook with its deliveries and their log",
		Access: httpapi.Admin, Handle: s.delete})
	api.Add(httpapi.Route{Method: "POST", Path: "/v2/webhook/test/{id}", Tag: "webhook", Summary: "Send the webhook a test delivery now",
		Access: httpapi.Admin, Resp: TestSent{}, Handle: s.test})
	api.Add(httpapi.Route{Method: "GET", Path: "/v2/webhook/log/{id}", Tag: "webhook", Summary: "The webhook's latest delivery attempts (100), newest first, with its deliveries not tried yet",
		Access: httpapi.Admin, Resp: []Attempt{}, Handle: s.log})
}

func fail(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return httpapi.NotFound()
	case errors.Is(err, ErrNameTaken):
		return httpapi.InvalidField("name", "webhook_name_taken")
	case errors.Is(err, ErrTooMany):
		return httpapi.Conflict("webhook_too_many", MaxWebhooks)
	}
	return httpapi.Internal(err)
}

func (s *Service) list(r *http.Request) (any, error) {
	out, err := s.Store.List(r.Context(), httpapi.Caller(r).OrgID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}

func (s *Service) add(r *http.Request) (any, error) {
	var in WebhookInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := validateInput(&in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	w, err := s.Store.Create(r.Context(), p.OrgID, in)
	if err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "webhook.add", in.Name, in.URL, httpapi.ClientAddr(r))
	return w, nil
}

// webhook loads the path's webhook of the caller's organisation (another's: 404).
func (s *Service) webhook(r *http.Request) (*Webhook, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	w, err := s.Store.Get(r.Context(), httpapi.Caller(r).OrgID, id)
	if err != nil {
		return nil, fail(err)
	}
	return w, nil
}

func (s *Service) edit(r *http.Request) (any, error) {
	w, err := s.webhook(r)
	if err != nil {
		return nil, err
	}
	var in WebhookInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	if err := validateInput(&in); err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	out, err := s.Store.Update(r.Context(), p.OrgID, w.ID, in)
	if err != nil {
		return nil, fail(err)
	}
	what := in.URL
	if in.RotateSecret {
		what += " (new secret)"
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "webhook.edit", in.Name, what, httpapi.ClientAddr(r))
	return out, nil
}

func (s *Service) delete(r *http.Request) (any, error) {
	w, err := s.webhook(r)
	if err != nil {
		return nil, err
	}
	p := httpapi.Caller(r)
	if err := s.Store.Delete(r.Context(), p.OrgID, w.ID); err != nil {
		return nil, fail(err)
	}
	org.Audit(r.Context(), s.Store.DB, p.OrgID, p.UserID, "webhook.delete", w.Name, w.URL, httpapi.ClientAddr(r))
	return nil, nil
}

func (s *Service) test(r *http.Request) (any, error) {
	w, err := s.webhook(r)
	if err != nil {
		return nil, err
	}
	id, err := s.Worker.SendTest(r.Context(), s.Outbox, httpapi.Caller(r).OrgID, w.ID)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return TestSent{DeliveryID: id}, nil
}

func (s *Service) log(r *http.Request) (any, error) {
	w, err := s.webhook(r)
	if err != nil {
		return nil, err
	}
	out, err := s.Store.Log(r.Context(), httpapi.Caller(r).OrgID, w.ID, 100)
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return out, nil
}
