package org

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/store"
)

// Settings are an organisation's own settings.
type Settings struct {
	Name string `json:"name" validate:"required" doc:"up to 100 characters"`
	// Timezone is the IANA zone scheduled reports keep unless a schedule names another.
	Timezone string `json:"timezone" validate:"required" doc:"IANA time zone, for example Asia/Shanghai"`
}

// MaxOrgName bounds an organisation's name.
const MaxOrgName = 100

// ValidTimezone says whether zone is an IANA time zone name this server knows.
func ValidTimezone(zone string) bool {
	if zone == "" || zone == "Local" || strings.ContainsAny(zone, " .\\") {
		return false
	}
	_, err := time.LoadLocation(zone)
	return err == nil
}

// Validate checks the settings, naming each bad field.
func (s *Settings) Validate() error {
	var v httpapi.Validator
	s.Name = strings.TrimSpace(s.Name)
	if v.Required("name", s.Name) {
		v.MaxLen("name", s.Name, MaxOrgName)
	}
	if v.Required("timezone", s.Timezone) && !ValidTimezone(s.Timezone) {
		v.Add("timezone", "invalid_format")
	}
	return v.Err()
}

// LoadSettings reads an organisation's settings.
func LoadSettings(ctx context.Context, db *store.DB, orgID int64) (Settings, error) {
	var s Settings
	err := db.QueryRow(ctx, "SELECT name, timezone FROM organizations WHERE id = ?", orgID).Scan(&s.Name, &s.Timezone)
	if errors.Is(err, sql.ErrNoRows) {
		return s, store.ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("org: unable to read settings: %w", err)
	}
	return s, nil
}

// SaveSettings stores validated settings.
func SaveSettings(ctx context.Context, db *store.DB, orgID int64, s Settings) error {
	if _, err := db.Exec(ctx, "UPDATE organizations SET name = ?, timezone = ? WHERE id = ?", s.Name, s.Timezone, orgID); err != nil {
		return fmt.Errorf("org: unable to save settings: %w", err)
	}
	return nil
}

// Timezone is an organisation's time zone, "" when not set.
func Timezone(ctx context.Context, db *store.DB, orgID int64) (string, error) {
	s, err := LoadSettings(ctx, db, orgID)
	return s.Timezone, err
}
