package workorder

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/blob"
	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/idempotent"
	"github.com/helio-energy/helio/internal/listing"
	"github.com/helio-energy/helio/internal/message"
	"github.com/helio-energy/helio/internal/notify"
	"github.com/helio-energy/helio/internal/store"
)

// Service serves the /v2/workorder calls.
type Service struct {
	DB       *store.DB
	Blobs    blob.Store
	Messages *message.Store // nil: no messages
	Outbox   *notify.Outbox // the webhooks' events (nil: none)
	// Keys makes the writes idempotent under an Idempotency-Key header (nil: keys ignored).
	Keys *idempotent.Keys
	Now  func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ListQuery is the list's filters (list, summary and export).
type ListQuery struct {
	StationID int64  `query:"stationId" validate:"id" doc:"a station (its sub-stations' orders included)"`
	Status    int    `query:"status" enum:"1,2,3,4,5" doc:"1-5; absent for all"`
	Priority  int    `query:"priority" enum:"1,2,3,4" doc:"1-4; absent for all"`
	Timeout   *int   `query:"timeoutStatus" enum:"0,1" doc:"0 on time, 1 timed out; absent for all"`
	Mine      string `query:"mine" enum:"started,copied,assigned" doc:"started (mine started), copied (copied to me) or assigned (mine to process)"`
	Q         string `query:"q" maxLen:"100" doc:"part of the title or number (at most 100 characters)"`
	From      string `query:"from" doc:"submitted from (RFC 3339 or yyyy-MM-dd)"`
	To        string `query:"to" doc:"submitted before (RFC 3339, or yyyy-MM-dd: to the end of that day); at most 366 days after from"`
	AlarmID   int64  `query:"alarmId" validate:"id" doc:"orders opened from this alarm"`
	Sort      string `query:"sort" enum:"priority,due,status" doc:"rank by priority (low to very urgent), due (the planned end) or status (in workflow order: pending accept, pending process, executing, finished, rejected); ties by id; the export comes in the list's order"`
	Order     string `query:"order" enum:"asc,desc" doc:"asc or desc (default) with sort"`
	httpapi.Paging
	Format string `query:"format" enum:"csv,xlsx" default:"csv" doc:"export only: csv (default) or xlsx"`
	filter Filter // what Check read
}

// Check reads the range and the order into the filter.
func (q *ListQuery) Check(v *httpapi.Validator) {
	f := Filter{Status: q.Status, Priority: q.Priority, Timeout: -1, Mine: q.Mine, Query: q.Q, AlarmID: q.AlarmID,
		Page: q.Page, Size: q.PageSize}
	if q.Timeout != nil {
		f.Timeout = *q.Timeout
	}
	f.From, f.To = listing.Span(v, "from", q.From, "to", q.To, 366)
	f.Sort = listing.SortOf(v, q.Sort, q.Order)
	q.filter = f
}

// Detail is an order with what the caller may do, its history, comments and files.
type Detail struct {
	Order
	Actions     []string     `json:"actions" doc:"the transitions the caller may make now"`
	CanAssign   bool         `json:"canAssign"`
	CCUserIDs   []int64      `json:"ccUserIds"`
	Events      []Event      `json:"events"`
	Comments    []Comment    `json:"comments"`
	Attachments []Attachment `json:"attachments"`
	// On site (site.go): the order's checklist (null: none) and its check-ins; OnSite says
	// whether the caller may check in and answer the checklist now.
	Checklist *Checklist `json:"checklist"`
	CheckIns  []CheckIn  `json:"checkIns"`
	OnSite    bool       `json:"onSite" doc:"the caller may check in and answer the checklist now (processor or administrator, order accepted or executing)"`
}

// TransitionInput moves an order.
type TransitionInput struct {
	Action  string `json:"action" validate:"required" doc:"accept, reject, start, finish or close"`
	Comment string `json:"comment" doc:"at most 1000 characters; required to reject and finish"`
}

// AssignInput gives an open order to a user or a department (it returns to pending accept).
type AssignInput struct {
	AssigneeUserID int64  `json:"assigneeUserId"`
	AssigneeDeptID int64  `json:"assigneeDeptId"`
	Comment        string `json:"comment"`
}

// CommentInput adds a comment.
type CommentInput struct {
	Body string `json:"body" validate:"required" doc:"at most 1000 characters"`
}

// Routes registers the /v2/workorder calls.
func (s *Service) Routes(api *httpapi.API) {
	add := func(rt httpapi.Route) {
		rt.Tag, rt.Access = "workorder", httpapi.Signed
		if rt.Method == http.MethodPost && s.Keys != nil {
			// every write may carry an Idempotency-Key (a phone's offline queue sends again)
			rt.Handle = s.Keys.Wrap(rt.Handle, func(r *http.Request, id int64) (any, error) { return s.detailOf(r, id) })
		}
		api.Add(rt)
	}
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/list", Summary: "Work orders, filtered and paged",
		Query: ListQuery{}, Resp: httpapi.Page[Order]{}, Handle: s.list})
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/summary", Summary: "Totals of the filtered work orders by status, timed out and process ratio",
		Query: ListQuery{}, Resp: Summary{}, Handle: s.summary})
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/export", Summary: "The filtered work orders as CSV or XLSX (at most 100000 rows)",
		Query: ListQuery{}, RawTypes: httpapi.ExportTypes, Raw: s.export})
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/people", Summary: "The users and departments an order can be assigned or copied to",
		Resp: People{}, Handle: s.people})
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/detail/{uid}", Summary: "One work order with its history, comments and attachments",
		Resp: Detail{}, Handle: s.detail})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/add", Summary: "Open a work order, by hand or from an alarm (one open order per alarm)",
		Body: Input{}, Resp: Detail{}, Handle: s.create})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/transition/{uid}", Summary: "Accept, reject, start, finish or close a work order (allowed transitions only)",
		Body: TransitionInput{}, Resp: Detail{}, Handle: s.transition})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/assign/{uid}", Summary: "Give an open order to a user or department (administrator or submitter)",
		Body: AssignInput{}, Resp: Detail{}, Handle: s.assign})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/comment/{uid}", Summary: "Comment on a work order",
		Body: CommentInput{}, Resp: Detail{}, Handle: s.comment})
	add(httpapi.Route{Method: "POST", Path: "/v2/workorder/attachment/{uid}", Summary: "Attach a photo (JPEG, PNG, WebP) or PDF of at most 5 MB",
		Body: AttachmentInput{}, Resp: Detail{}, Handle: s.attach})
	add(httpapi.Route{Method: "GET", Path: "/v2/workorder/attachment/{uid}/{fileId}", Summary: "Download an attachment",
		RawTypes: []string{"image/jpeg", "image/png", "image/webp", httpapi.MediaPDF}, Raw: s.download})
	s.siteRoutes(add)
	s.templateRoutes(api)
}

// filter is the list's filter; a station the caller cannot see is a 404.
func (s *Service) filter(r *http.Request) (Filter, error) {
	q := httpapi.Query[ListQuery](r)
	f := q.filter
	if q.StationID != 0 {
		ids, err := stationAndChildren(r, s.DB, q.StationID)
		if err != nil {
			return f, err
		}
		f.StationIDs = ids
	}
	return f, nil
}

func (s *Service) list(r *http.Request) (any, error) {
	f, err := s.filter(r)
	if err != nil {
		return nil, err
	}
	list, total, err := List(r.Context(), s.DB, httpapi.Caller(r), f, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	localiseAll(list, httpapi.Locale(r))
	total, capped := listing.Capped(total, CountCap)
	return httpapi.Page[Order]{List: list, Total: total, TotalCapped: capped, Page: f.Page, PageSize: f.Size}, nil
}

func (s *Service) summary(r *http.Request) (any, error) {
	f, err := s.filter(r)
	if err != nil {
		return nil, err
	}
	sum, err := Summarise(r.Context(), s.DB, httpapi.Caller(r), f, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return sum, nil
}

// order reads the visible order the path names.
func (s *Service) order(r *http.Request) (Order, error) {
	id, err := httpapi.PathID(r, "uid")
	if err != nil {
		return Order{}, err
	}
	o, err := Get(r.Context(), s.DB, httpapi.Caller(r), id, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return o, httpapi.NotFound()
	}
	if err != nil {
		return o, httpapi.Internal(err)
	}
	return o, nil
}

func canAssign(p *httpapi.Principal, o *Order) bool {
	return (p.IsAdmin() || o.SubmitterID == p.UserID) && (o.Status == PendingAccept || o.Status == PendingProcess)
}

func (s *Service) detailOf(r *http.Request, id int64) (any, error) {
	ctx, p := r.Context(), httpapi.Caller(r)
	o, err := Get(ctx, s.DB, p, id, s.now())
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	o.Localise(httpapi.Locale(r))
	d := Detail{Order: o, Actions: Allowed(o.Status, ActorOf(p, &o)), CanAssign: canAssign(p, &o), OnSite: onSite(p, &o) == nil}
	if d.Events, err = events(ctx, s.DB, id); err == nil {
		if d.Comments, err = comments(ctx, s.DB, id); err == nil {
			if d.Attachments, err = attachments(ctx, s.DB, id); err == nil {
				d.CCUserIDs, err = ccUsers(ctx, s.DB, id)
			}
		}
	}
	if err == nil {
		if d.Checklist, err = checklistOf(ctx, s.DB, id); err == nil {
			d.CheckIns, err = checkInsOf(ctx, s.DB, id)
		}
	}
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return d, nil
}

func (s *Service) detail(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	return s.detailOf(r, o.ID)
}

func (s *Service) create(r *http.Request) (any, error) {
	var in Input
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	id, err := Create(r.Context(), s.DB, s.Outbox, httpapi.Caller(r), in, s.now())
	if err != nil {
		return nil, err
	}
	s.announce(r, id, "create")
	s.changed(r)
	return s.detailOf(r, id)
}

func (s *Service) transition(r *http.Request) (any, error) {
	o, err := s.order(r)
	if err != nil {
		return nil, err
	}
	var in TransitionInput
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	in.Action = strings.TrimSpace(in.Action)
	if in.Action == "" {
		return nil, httpapi.InvalidField("action", "required")
	}
	if _, err := Move(r.Context(), s.DB, s.Outbox, httpapi.Caller(r), &o, in.Action, in.Comment, s.now()); err != nil {
		return nil, err
	}
	s.announce(r, o.ID, in.Action)
	s.changed(r)
	return s.detailOf(r, o.ID)
}
