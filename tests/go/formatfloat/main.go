// Reads one float64 per line and prints strconv.FormatFloat(v, 'g', -1, 32) and (v, 'g', -1, 64).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		v, _ := strconv.ParseFloat(in.Text(), 64)
		fmt.Println(strconv.FormatFloat(v, 'g', -1, 32), strconv.FormatFloat(v, 'g', -1, 64))
	}
}
