package message_test

import (
	"slices"
	"testing"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
)

func TestListQueryKinds(t *testing.T) {
	if got := httpapi.Enum(message.ListQuery{}, "messageType"); !slices.Equal(got, message.Kinds) {
		t.Errorf("messageType: %v, want %v", got, message.Kinds)
	}
}
