// Command jsondecode reads one JSON text per line on stdin, decodes it with encoding/json into the
// typed value Top (structs, pointers, maps, slices of structs, case-folded names) and writes it
// back as one JSON line: {"value": ...} or {"error": "..."}. tests/test_godecode.py mirrors Top
// as a GoType and compares llmc.resolve.godecode with it on texts whose keys repeat.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

type Inner struct {
	A *int              `json:"a,omitempty"`
	B string            `json:"b,omitempty"`
	M map[string]string `json:"m,omitempty"`
	Deep *Inner         `json:"deep,omitempty"`
}

type Item struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	In    *Inner `json:"in,omitempty"`
}

type Top struct {
	Ptr     *Inner           `json:"ptr,omitempty"`
	Val     Inner            `json:"val"`
	List    []Item           `json:"list,omitempty"`
	Ints    []int            `json:"ints,omitempty"`
	Structs map[string]Inner `json:"structs,omitempty"`
	Str     string           `json:"str,omitempty"`
	Any     interface{}      `json:"any,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var v Top
		if err := json.Unmarshal(in.Bytes(), &v); err != nil {
			out.Encode(map[string]string{"error": err.Error()})
		} else {
			out.Encode(map[string]interface{}{"value": v})
		}
	}
}
