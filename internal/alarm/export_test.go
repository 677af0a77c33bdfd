package alarm

import (
	"context"
	"time"

	"github.com/helio-energy/helio/internal/store"
)

// SaveRulesForTest stores rules as the rules call does.
func SaveRulesForTest(ctx context.Context, db *store.DB, orgID int64, list []Rule) error {
	return saveRules(ctx, db, orgID, 0, list, time.Unix(0, 0))
}

// ForgetRules drops an organisation's cached rules.
func (e *Engine) ForgetRules(orgID int64) { e.rules.forget(orgID) }
