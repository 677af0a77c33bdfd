package workorder

import (
	"encoding/json"

	"github.com/helio-energy/helio/internal/httpapi"
	"github.com/helio-energy/helio/internal/message"
)

// TitleText is the title as a message text: its key and arguments when it was made from an
// alarm's description, else the title as written.
func (o *Order) TitleText() message.Text {
	if o.titleKey == "" || !httpapi.HasMessage(o.titleKey) {
		return message.Plain(o.Title)
	}
	var args []any
	_ = json.Unmarshal([]byte(o.titleArgs), &args)
	return message.Text{Key: o.titleKey, Args: args}
}

// Localise shows the title in a language (a title written by hand stays as it is).
func (o *Order) Localise(locale string) {
	if o.titleKey != "" && httpapi.HasMessage(o.titleKey) {
		o.Title = truncate(o.TitleText().In(locale), MaxTitleLen)
	}
}

func localiseAll(list []Order, locale string) {
	for i := range list {
		list[i].Localise(locale)
	}
}
