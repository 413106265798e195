package gopool_test

import (
	"fmt"

	"github.com/hookctl/hookctl/internal/gopool"
)

func ExamplePool() {
	var p gopool.Pool
	done := make(chan string)
	p.Go(func() { done <- "ran on a goroutine of the pool" })
	fmt.Println(<-done)
	// Output: ran on a goroutine of the pool
}
