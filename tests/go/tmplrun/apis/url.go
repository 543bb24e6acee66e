// Package apis mirrors knative's apis.URL: a defined type over net/url.URL.
package apis

import (
	"encoding/json"
	"net/url"
)

// URL is url.URL with knative's JSON and String methods.
type URL url.URL

func (u *URL) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		*u = URL{}
		return nil
	}
	p, err := url.Parse(s)
	if err != nil {
		return err
	}
	*u = URL(*p)
	return nil
}

// String is url.URL.String; "" for a nil URL.
func (u *URL) String() string {
	if u == nil {
		return ""
	}
	uu := url.URL(*u)
	return uu.String()
}
