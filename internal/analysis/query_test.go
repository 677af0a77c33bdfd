package analysis_test

import (
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/analysis"
	"github.com/helio-energy/helio/internal/httpapi"
)

func TestOverviewQueryEnums(t *testing.T) {
	if got := httpapi.Enum(analysis.OverviewQuery{}, "period"); !slices.Equal(got, analysis.PeriodKinds) {
		t.Errorf("period: %v, want %v", got, analysis.PeriodKinds)
	}
	scopes := []string{analysis.ScopeFleet, analysis.ScopeStation, analysis.ScopeDevice}
	if got := httpapi.Enum(analysis.OverviewQuery{}, "scope"); !slices.Equal(got, scopes) {
		t.Errorf("scope: %v, want %v", got, scopes)
	}
}
