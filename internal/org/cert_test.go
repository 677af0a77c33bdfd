package org

import (
	"errors"
	"testing"
)

// Every status × action: only an auditing record moves, each action to its one status.
func TestCertTransitions(t *testing.T) {
	want := map[[2]string]string{
		{CertAuditing, CertWithdraw}: CertWithdrawn,
		{CertAuditing, CertPass}:     CertPassed,
		{CertAuditing, CertRefuse}:   CertRefused,
	}
	statuses := []string{CertAuditing, CertPassed, CertRefused, CertWithdrawn, ""}
	actions := []string{CertWithdraw, CertPass, CertRefuse, "submit", ""}
	for _, st := range statuses {
		for _, a := range actions {
			next, err := NextCertStatus(st, a)
			if w, ok := want[[2]string{st, a}]; ok {
				if err != nil || next != w {
					t.Errorf("%s from %q: %q %v, want %q", a, st, next, err, w)
				}
			} else if !errors.Is(err, ErrTransition) || next != "" {
				t.Errorf("%s from %q: %q %v, want refused", a, st, next, err)
			}
		}
	}
}
