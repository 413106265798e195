package engine

import "context"

// Middleware wraps the handler of every hook, as watermill's router
// middleware wraps message handlers: next is the hook's handler and info
// describes the hook; the returned handler runs in its place. Middleware
// is applied once, when the hook is registered or loaded, never per fire.
// A wrapped declarative hook calls its handler (no static fast path);
// with no middleware configured nothing changes.
//
// The returned handler keeps next's kind in traces and, unless it
// implements Inliner or SelfTimed itself, next's inlining and timing, so
// it must pass ctx on to next. A middleware that changes a result returns
// a changed copy: the Result next returns may be the one it returns every
// time (declarative hooks, a script's return of literals).
type Middleware func(next Handler, info HookInfo) Handler

// WithMiddleware wraps every hook's handler with mw; the first wraps the
// others (it runs first).
func WithMiddleware(mw ...Middleware) Option {
	return func(e *Engine) error {
		e.mw = append(e.mw, mw...)
		return nil
	}
}

// wrap applies mw to h, the first outermost.
func wrap(h Handler, info HookInfo, mw []Middleware) Handler {
	inner := h
	for i := len(mw) - 1; i >= 0; i-- {
		if w := mw[i](h, info); w != nil {
			h = w
		}
	}
	return wrapped{Handler: h, inner: inner}
}

// wrapped is a handler behind middleware: it reports the kind, inlining
// and timing of the handler it wraps unless the middleware's own says
// otherwise.
type wrapped struct {
	Handler
	inner Handler
}

func (w wrapped) Handle(ctx context.Context, call *Call) (Result, error) {
	return w.Handler.Handle(ctx, call)
}

func (w wrapped) Kind() string { return handlerKind(w.inner) }

func (w wrapped) Inline() bool {
	if in, ok := w.Handler.(Inliner); ok {
		return in.Inline()
	}
	in, ok := w.inner.(Inliner)
	return ok && in.Inline()
}

func (w wrapped) SelfTimed() bool {
	if st, ok := w.Handler.(SelfTimed); ok {
		return st.SelfTimed()
	}
	st, ok := w.inner.(SelfTimed)
	return ok && st.SelfTimed()
}

// info describes a compiled hook for middleware and listings.
func (c *compiledHook) info() HookInfo {
	info := HookInfo{ID: c.ID, When: c.When, Priority: c.Priority, Handler: c.kind, Timeout: c.Timeout, Layer: c.Layer,
		OnError: c.OnError.Policy.String(), Background: c.Background, Observe: c.Observe, Disabled: c.Disabled, Source: c.Source}
	if len(c.events) > 0 {
		info.Event = c.events[0]
	}
	if c.matcher != nil {
		info.Matcher = c.matcher.String()
	}
	if info.When == "" && c.cond != nil {
		info.When = c.cond.Source()
	}
	return info
}
