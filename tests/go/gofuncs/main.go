// Command gofuncs answers one JSON case per stdin line with Go's own output for llmc.go's functions
// (tests/test_go_differential.py): {"op": ..., ...} -> {"out": "<text>"} or {"err": "<error>"}.
//
// Strings travel as byte lists ("b"), so that invalid UTF-8 reaches Go as it is. Floats travel as
// their IEEE-754 bits ("bits", a decimal uint64), so NaN, infinities and -0 survive JSON.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
)

type request struct {
	Op    string          `json:"op"`
	B     []int           `json:"b"`
	Bits  string          `json:"bits"`
	Fmt   string          `json:"fmt"`
	Prec  int             `json:"prec"`
	Size  int             `json:"size"`
	Value json.RawMessage `json:"value"`
}

// decode reads the "value" of a marshal or %v case: JSON data whose strings are {"b": [...]} and
// whose floats are {"f": "<bits>"}, so that both survive the trip unchanged.
func decode(raw json.RawMessage) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	return rebuild(v)
}

func rebuild(v any) any {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			panic(err)
		}
		return n
	case []any:
		for i := range x {
			x[i] = rebuild(x[i])
		}
		return x
	case map[string]any:
		if b, ok := x["b"]; ok && len(x) == 1 {
			return string(toBytes(b.([]any)))
		}
		if f, ok := x["f"]; ok && len(x) == 1 {
			return fromBits(f.(string))
		}
		if m, ok := x["map"]; ok && len(x) == 1 {
			out := map[string]any{}
			for _, kv := range m.([]any) {
				pair := kv.([]any)
				out[rebuild(pair[0]).(string)] = rebuild(pair[1])
			}
			return out
		}
		panic(fmt.Sprintf("unknown value %v", x))
	}
	return v
}

func toBytes(list []any) []byte {
	out := make([]byte, len(list))
	for i, n := range list {
		k, _ := n.(json.Number).Int64()
		out[i] = byte(k)
	}
	return out
}

func fromBits(text string) float64 {
	u, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		panic(err)
	}
	return math.Float64frombits(u)
}

func answer(r request) (string, error) {
	s := make([]byte, len(r.B))
	for i, n := range r.B {
		s[i] = byte(n)
	}
	switch r.Op {
	case "quote":
		return strconv.Quote(string(s)), nil
	case "quote_ascii":
		return strconv.QuoteToASCII(string(s)), nil
	case "format_float":
		return strconv.FormatFloat(fromBits(r.Bits), r.Fmt[0], r.Prec, r.Size), nil
	case "parse_int":
		n, err := strconv.ParseInt(string(s), 0, 64)
		return strconv.FormatInt(n, 10), err
	case "parse_uint":
		n, err := strconv.ParseUint(string(s), 0, 64)
		return strconv.FormatUint(n, 10), err
	case "parse_float":
		f, err := strconv.ParseFloat(string(s), 64)
		return strconv.FormatUint(math.Float64bits(f), 10), err
	case "unmarshal_error":
		var v any
		if err := json.Unmarshal(s, &v); err != nil {
			return err.Error(), nil
		}
		return "", nil
	case "marshal":
		out, err := json.Marshal(decode(r.Value))
		return string(out), err
	case "sprint":
		return fmt.Sprint(decode(r.Value)), nil
	case "sprintf":
		return fmt.Sprintf(string(s), decode(r.Value)), nil
	}
	return "", fmt.Errorf("unknown op %q", r.Op)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			panic(err)
		}
		text, err := answer(r)
		res := map[string]any{"out": []byte(text)}
		if err != nil {
			res = map[string]any{"err": err.Error()}
		}
		enc.Encode(res)
	}
}
