package main

// Go refuses an import that is not used.
import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("Yes")
}
