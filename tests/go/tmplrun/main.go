// Command tmplrun reads template cases as JSON lines on stdin and writes one JSON result
// line per case: the reference Go text/template behaviour llmc is tested against.
package main

import (
	"bufio"
	"encoding/json"
	"os"

	"tmplrun/llmisvc"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var c llmisvc.Case
		var r llmisvc.Result
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			msg := "harness: bad case: " + err.Error()
			r.Err = &msg
		} else {
			r = llmisvc.Run(c)
		}
		if err := enc.Encode(r); err != nil {
			panic(err)
		}
	}
}
