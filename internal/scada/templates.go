package scada

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"sort"
	"sync"

	"github.com/helio-energy/helio/internal/httpapi"
)

// Shipped register maps for common non-SunSpec inverters, written from the vendors'
// published Modbus register lists (docs/field.md names the documents). The console
// loads one as a template; saving it makes it the organisation's own map.
//
//go:embed templates/*.regmap.json
var templateFiles embed.FS

var (
	templatesOnce sync.Once
	templateList  []MapInput
	templateErr   error
)

// Templates returns the shipped maps, validated (a fresh copy each call).
func Templates() ([]MapInput, error) {
	templatesOnce.Do(func() { templateList, templateErr = loadTemplates() })
	if templateErr != nil {
		return nil, templateErr
	}
	b, err := json.Marshal(templateList)
	if err != nil {
		return nil, err
	}
	var out []MapInput
	return out, json.Unmarshal(b, &out)
}

func loadTemplates() ([]MapInput, error) {
	names, err := templateFiles.ReadDir("templates")
	if err != nil {
		return nil, err
	}
	var out []MapInput
	for _, n := range names {
		b, err := templateFiles.ReadFile(path.Join("templates", n.Name()))
		if err != nil {
			return nil, err
		}
		var in MapInput
		if err := json.Unmarshal(b, &in); err != nil {
			return nil, fmt.Errorf("scada: template %s: %w", n.Name(), err)
		}
		if err := in.Validate(); err != nil {
			return nil, fmt.Errorf("scada: template %s: %w", n.Name(), describe(err))
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// describe spells out a validation error's fields (a template bug shows where it is).
func describe(err error) error {
	if he, ok := err.(*httpapi.Error); ok && len(he.Fields) > 0 {
		return fmt.Errorf("%s: %v", he.Key, he.Fields)
	}
	return err
}

func (s *Service) templates(r *http.Request) (any, error) {
	var in Empty
	if err := httpapi.Decode(r, &in); err != nil {
		return nil, err
	}
	list, err := Templates()
	if err != nil {
		return nil, httpapi.Internal(err)
	}
	return list, nil
}
