// Command jsonnum reads one JSON text per line on stdin and decodes each with encoding/json into
// interface{} (numbers become float64, as kubectl reads JSON manifests); it writes one JSON line
// per input: {"value": ...} or {"error": "..."}.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var v interface{}
		if err := json.Unmarshal(in.Bytes(), &v); err != nil {
			out.Encode(map[string]string{"error": err.Error()})
		} else {
			out.Encode(map[string]interface{}{"value": v})
		}
	}
}
