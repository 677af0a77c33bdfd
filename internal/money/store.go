package money

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/helio-energy/helio/internal/store"
)

// Load reads an organisation's book.
func Load(ctx context.Context, db *store.DB, orgID int64) (*Book, error) {
	b := &Book{Rates: []Rate{}}
	err := db.QueryRow(ctx, "SELECT base_currency FROM organizations WHERE id = ?", orgID).Scan(&b.Base)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("money: unable to read the base currency: %w", err)
	}
	rows, err := db.Query(ctx, "SELECT currency, month, rate FROM currency_rates WHERE org_id = ? ORDER BY currency, month", orgID)
	if err != nil {
		return nil, fmt.Errorf("money: unable to read rates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Rate
		if err := rows.Scan(&r.Currency, &r.Month, &r.Rate); err != nil {
			return nil, fmt.Errorf("money: unable to read rates: %w", err)
		}
		b.Rates = append(b.Rates, r)
	}
	return b, rows.Err()
}

// Save replaces an organisation's (validated) book.
func Save(ctx context.Context, db *store.DB, orgID int64, b *Book) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE organizations SET base_currency = ? WHERE id = ?", b.Base, orgID); err != nil {
			return fmt.Errorf("money: unable to save the base currency: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM currency_rates WHERE org_id = ?", orgID); err != nil {
			return fmt.Errorf("money: unable to save rates: %w", err)
		}
		for _, r := range b.Rates {
			if _, err := tx.Exec(ctx, "INSERT INTO currency_rates (org_id, currency, month, rate) VALUES (?, ?, ?, ?)", orgID, r.Currency, r.Month, r.Rate); err != nil {
				return fmt.Errorf("money: unable to save rates: %w", err)
			}
		}
		return nil
	})
}
