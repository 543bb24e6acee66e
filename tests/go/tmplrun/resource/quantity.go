// Package resource is a stand-in for apimachinery's resource.Quantity: it keeps the
// text it was decoded from and computes Value() (bytes, rounded up) from it.
package resource

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"
)

// Quantity keeps its text; String has a pointer receiver like apimachinery's.
type Quantity struct {
	s string
}

func (q *Quantity) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case string:
		q.s = x
	case float64:
		q.s = big.NewFloat(x).Text('f', -1)
	}
	return nil
}

// String returns the text the quantity was decoded from ("0" for the zero value).
func (q *Quantity) String() string {
	if q.s == "" {
		return "0"
	}
	return q.s
}

var re = regexp.MustCompile(`^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$`)

// Value is the amount rounded up (away from zero) to an integer.
func (q *Quantity) Value() int64 {
	m := re.FindStringSubmatch(strings.TrimSpace(q.String()))
	if m == nil {
		return 0
	}
	r, _ := new(big.Rat).SetString(m[1])
	scale := new(big.Rat).SetInt64(1)
	bin := map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
	dec := map[string]int64{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	if s, ok := bin[m[2]]; ok {
		scale.SetInt(new(big.Int).Lsh(big.NewInt(1), s))
	} else {
		e, ok := dec[m[2]]
		if !ok {
			n := new(big.Int)
			n.SetString(strings.TrimPrefix(m[2][1:], "+"), 10)
			e = n.Int64()
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs(e)), nil)
		if e >= 0 {
			scale.SetInt(p)
		} else {
			scale.SetFrac(big.NewInt(1), p)
		}
	}
	r.Mul(r, scale)
	num, den := r.Num(), r.Denom()
	quo, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if rem.Sign() > 0 {
		quo.Add(quo, big.NewInt(1))
	} else if rem.Sign() < 0 {
		quo.Sub(quo, big.NewInt(1))
	}
	return quo.Int64()
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
