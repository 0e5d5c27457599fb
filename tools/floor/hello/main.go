// Command hello is a plain Go hello-world, the first floor of
// tools/floor/bench.sh: what any Go process costs to start on this
// machine.
package main

import "fmt"

func main() {
	fmt.Println("hello, world")
}
