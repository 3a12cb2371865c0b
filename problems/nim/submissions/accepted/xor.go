package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	var n int
	fmt.Fscan(in, &n)
	x := 0
	for i := 0; i < n; i++ {
		v := 0
		// Read digits by hand: fmt.Fscan is slow for 10^5 numbers.
		c, _ := in.ReadByte()
		for c == ' ' || c == '\n' || c == '\r' {
			c, _ = in.ReadByte()
		}
		for c >= '0' && c <= '9' {
			v = v*10 + int(c-'0')
			c, _ = in.ReadByte()
		}
		x ^= v
	}
	if x != 0 {
		fmt.Println("Yes")
	} else {
		fmt.Println("No")
	}
}
