package stdlib

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/urlallow"
	"github.com/hookctl/hookctl/script"
)

// MaxHTTPBody bounds a response body read by hookctl/http.
const MaxHTTPBody = 4 << 20

func contextWithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

// httpModule is hookctl/http: JSON requests with a timeout, no redirects
// (unless Options.HTTPClient follows them), limited to the URLs of the
// allowlist: every request and every redirect hop. It needs the "net"
// capability.
func httpModule(o Options, allow *urlallow.List) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		do := func(c goja.FunctionCall, method string, hasBody bool) goja.Value {
			fname := "http." + strings.ToLower(method)
			vm.Require(CapNet, fname)
			url := argString(vm, c, 0, fname)
			if err := allow.Check(url); err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", fname, err)))
			}
			optIdx := 1
			var body io.Reader
			if hasBody {
				optIdx = 2
				b, err := json.Marshal(script.Export(c.Argument(1)))
				if err != nil {
					panic(rt.NewTypeError(fname + ": body: " + err.Error()))
				}
				body = bytes.NewReader(b)
			}
			opts := options(c, optIdx)
			ctx := vm.Context()
			if d, err := optDuration(opts, "timeout"); err != nil {
				panic(rt.NewTypeError(fname + ": " + err.Error()))
			} else if d > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, d)
				defer cancel()
			}
			req, err := http.NewRequestWithContext(ctx, method, url, body)
			if err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", fname, err)))
			}
			if hasBody {
				req.Header.Set("Content-Type", "application/json")
			}
			if h, ok := opts["headers"].(map[string]any); ok {
				for k, v := range h {
					req.Header.Set(k, fmt.Sprint(v))
				}
			}
			resp, err := o.HTTPClient.Do(req)
			if err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", fname, err)))
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(io.LimitReader(resp.Body, MaxHTTPBody))
			if err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", fname, err)))
			}
			out := map[string]any{"status": resp.StatusCode, "body": string(b), "json": nil}
			var js any
			if json.Unmarshal(b, &js) == nil {
				out["json"] = js
			}
			return rt.ToValue(out)
		}
		set(module, map[string]fn{
			"post": func(c goja.FunctionCall) goja.Value { return do(c, http.MethodPost, true) },
			"get":  func(c goja.FunctionCall) goja.Value { return do(c, http.MethodGet, false) },
		})
	}
}
