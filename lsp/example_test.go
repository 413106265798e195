package lsp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hookctl/hookctl/lsp"
)

// A server answers on any byte stream: here an editor's initialize, then
// shutdown and exit, from a string.
func ExampleServer_Serve() {
	var in strings.Builder
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	r, w := io.Pipe()
	go func() {
		err := lsp.New(lsp.WithVersion("v1")).Serve(context.Background(), strings.NewReader(in.String()), w)
		w.CloseWithError(err)
	}()
	out := bufio.NewReader(r)
	for range 2 {
		var n int
		line, _ := out.ReadString('\n')
		fmt.Sscanf(line, "Content-Length: %d", &n)
		out.ReadString('\n')
		body := make([]byte, n)
		io.ReadFull(out, body)
		s := string(body)
		if i := strings.Index(s, `"serverInfo"`); i >= 0 {
			s = s[i:]
		}
		fmt.Println(s)
	}
	// Output:
	// "serverInfo":{"name":"hookctl","version":"v1"}},"jsonrpc":"2.0"}
	// {"id":2,"result":null,"jsonrpc":"2.0"}
}
