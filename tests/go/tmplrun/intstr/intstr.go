// Package intstr mirrors apimachinery's IntOrString.
package intstr

import (
	"encoding/json"
	"strconv"
)

type Type int64

type IntOrString struct {
	Type   Type
	IntVal int32
	StrVal string
}

func (i *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		i.Type = 1
		return json.Unmarshal(b, &i.StrVal)
	}
	i.Type = 0
	return json.Unmarshal(b, &i.IntVal)
}

func (i *IntOrString) String() string {
	if i == nil {
		return "<nil>"
	}
	if i.Type == 1 {
		return i.StrVal
	}
	return strconv.Itoa(int(i.IntVal))
}
