package sys

// MenuMeta describes a menu entry for the console.
type MenuMeta struct {
	Locale       string   `json:"locale" doc:"i18n key of the label"`
	RequiresAuth bool     `json:"requiresAuth"`
	Icon         string   `json:"icon,omitempty"`
	Order        int      `json:"order"`
	Roles        []string `json:"roles" doc:"roles allowed; * for every role"`
	External     bool     `json:"external,omitempty" doc:"opens GET /v2/sys/monitor/url in a new tab"`
}

// MenuItem is one entry of the server-provided menu (SPEC.md section 3).
type MenuItem struct {
	Path     string     `json:"path"`
	Name     string     `json:"name"`
	Meta     MenuMeta   `json:"meta"`
	Children []MenuItem `json:"children,omitempty"`
}

var all = []string{"*"}

// menu is the product menu (SPEC.md section 2, without the template leftovers that
// DESIGN.md section 9 drops). Names and label keys are the console's route names and
// i18n keys. User and department management is for administrators.
var menu = []MenuItem{
	{Path: "/monitor", Name: "monitor", Meta: MenuMeta{Locale: "menu.monitor", RequiresAuth: true, Icon: "icon-dashboard", Order: 1, Roles: all}},
	{Path: "/station", Name: "station", Meta: MenuMeta{Locale: "menu.station", RequiresAuth: true, Icon: "icon-home", Order: 2, Roles: all}},
	{Path: "/station/tags", Name: "stationTags", Meta: MenuMeta{Locale: "menu.station.tags", RequiresAuth: true, Icon: "icon-tags", Order: 3, Roles: all}},
	{Path: "/device", Name: "device", Meta: MenuMeta{Locale: "menu.device", RequiresAuth: true, Icon: "icon-storage", Order: 4, Roles: all}},
	{Path: "/alarm", Name: "alarm", Meta: MenuMeta{Locale: "menu.alarm", RequiresAuth: true, Icon: "icon-notification", Order: 5, Roles: all}},
	{Path: "/analysis", Name: "analysis", Meta: MenuMeta{Locale: "menu.analysis", RequiresAuth: true, Icon: "icon-bar-chart", Order: 6, Roles: all}},
	{Path: "/debug", Name: "debug", Meta: MenuMeta{Locale: "menu.debug", RequiresAuth: true, Icon: "icon-bug", Order: 7, Roles: all}},
	{Path: "/operations", Name: "operations", Meta: MenuMeta{Locale: "menu.operations", RequiresAuth: true, Icon: "icon-calendar", Order: 8, Roles: all},
		Children: []MenuItem{
			{Path: "/operations/workorder", Name: "workOrder", Meta: MenuMeta{Locale: "menu.operations.workorder", RequiresAuth: true, Order: 1, Roles: all}},
			{Path: "/operations/plan", Name: "plan", Meta: MenuMeta{Locale: "menu.operations.plan", RequiresAuth: true, Order: 2, Roles: all}},
			{Path: "/operations/checklists", Name: "checklists", Meta: MenuMeta{Locale: "menu.operations.checklists", RequiresAuth: true, Order: 3, Roles: []string{"admin"}}},
		}},
	{Path: "/permission", Name: "permission", Meta: MenuMeta{Locale: "menu.permission", RequiresAuth: true, Icon: "icon-lock", Order: 9, Roles: []string{"admin"}}},
	{Path: "/tools", Name: "tools", Meta: MenuMeta{Locale: "menu.tools", RequiresAuth: true, Icon: "icon-tool", Order: 10, Roles: all}},
	{Path: "/dashboard/workplace", Name: "workplace", Meta: MenuMeta{Locale: "menu.dashboard.workplace", RequiresAuth: true, Icon: "icon-apps", Order: 12, Roles: all}},
	{Path: "/realtime", Name: "realtimeMonitor", Meta: MenuMeta{Locale: "menu.realtimeMonitor", RequiresAuth: true, Icon: "icon-desktop", Order: 11, Roles: all, External: true}},
}

// MenuFor returns the entries a role may see.
func MenuFor(role string) []MenuItem { return filter(menu, role) }

func filter(items []MenuItem, role string) []MenuItem {
	out := []MenuItem{}
	for _, it := range items {
		if !allowed(it.Meta.Roles, role) {
			continue
		}
		c := it
		if len(it.Children) > 0 {
			c.Children = filter(it.Children, role)
		}
		out = append(out, c)
	}
	return out
}

func allowed(roles []string, role string) bool {
	for _, r := range roles {
		if r == "*" || r == role {
			return true
		}
	}
	return false
}
