package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/panjf2000/ants/v2"
)

// workers owns the engine's ants pool and background queue. The pool is
// created on first use, so an engine whose hooks all run inline never
// starts a goroutine.
type workers struct {
	e *Engine

	mu      sync.Mutex
	pool    *ants.PoolWithFuncGeneric[*task]
	poolErr error
	size    int

	queue      chan *task
	dispatched chan struct{} // closed when the dispatcher exits
	pending    sync.WaitGroup
	bgCtx      context.Context
	bgCancel   context.CancelFunc
	closing    bool // no new background work
	released   bool // the pool is gone
}

func (w *workers) init(e *Engine) {
	w.e = e
	w.size = e.reg.base.maxConcurrency
	w.bgCtx, w.bgCancel = context.WithCancel(context.Background())
}

// get returns the pool, creating it on first use.
func (w *workers) get() (*ants.PoolWithFuncGeneric[*task], error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pool == nil && w.poolErr == nil && !w.released {
		w.pool, w.poolErr = ants.NewPoolWithFuncGeneric(w.size, w.e.runTask,
			ants.WithPanicHandler(func(v any) {
				w.e.log.Error("hookctl: panic escaped a hook task", "panic", v)
			}),
			ants.WithExpiryDuration(10*time.Second),
		)
	}
	if w.released {
		return nil, ErrClosed
	}
	return w.pool, w.poolErr
}

func (w *workers) tune(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n < 1 || n == w.size {
		return
	}
	w.size = n
	if w.pool != nil {
		w.pool.Tune(n)
	}
}

// submit hands a task to the pool, blocking while every worker is busy
// (back-pressure on the firing goroutine).
func (w *workers) submit(t *task) error {
	p, err := w.get()
	if err != nil {
		return err
	}
	return p.Invoke(t)
}

// enqueue queues a background task. When the queue is full it waits up to
// the engine's bound, then gives up with a *QueueFullError.
func (w *workers) enqueue(ctx context.Context, t *task) error {
	q, err := w.backgroundQueue()
	if err != nil {
		return err
	}
	select {
	case q <- t:
		return nil
	default:
	}
	timer := time.NewTimer(w.e.bgWait)
	defer timer.Stop()
	select {
	case q <- t:
		return nil
	case <-timer.C:
		w.pending.Done()
		return &QueueFullError{Hook: t.h.ID, Wait: w.e.bgWait}
	case <-ctx.Done():
		w.pending.Done()
		return fmt.Errorf("background hook %q not queued: %w", t.h.ID, ctx.Err())
	}
}

// backgroundQueue returns the queue, starting the dispatcher on first use,
// and counts one more pending task (under the lock, so Close never waits on
// a count that can still grow).
func (w *workers) backgroundQueue() (chan *task, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return nil, ErrClosed
	}
	w.pending.Add(1)
	if w.queue == nil {
		w.queue = make(chan *task, w.e.bgSize)
		w.dispatched = make(chan struct{})
		go w.dispatch(w.queue)
	}
	return w.queue, nil
}

// dispatch feeds queued background tasks to the pool.
func (w *workers) dispatch(q chan *task) {
	defer close(w.dispatched)
	for t := range q {
		if err := w.submit(t); err != nil {
			w.e.dropBackground(t, err)
		}
	}
}

// backgroundContext is the context a background hook runs with: the
// values of the fire that queued it, cancelled only when the engine shuts
// down.
func (w *workers) backgroundContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	stop := context.AfterFunc(w.bgCtx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// close drains the background queue and releases the pool.
func (w *workers) close(ctx context.Context) error {
	w.mu.Lock()
	w.closing = true
	q, done := w.queue, w.dispatched
	w.mu.Unlock()

	var errs []error
	drained := make(chan struct{})
	go func() {
		if q != nil {
			close(q)
			<-done
		}
		w.pending.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-ctx.Done():
		// Cancel what runs; the tasks still report themselves as done.
		w.bgCancel()
		errs = append(errs, fmt.Errorf("draining background hooks: %w", ctx.Err()))
		<-drained
	}
	w.bgCancel()

	w.mu.Lock()
	p := w.pool
	w.pool = nil
	w.released = true
	w.mu.Unlock()
	if p != nil {
		timeout := 5 * time.Second
		if dl, ok := ctx.Deadline(); ok {
			timeout = max(time.Until(dl), 100*time.Millisecond)
		}
		if err := p.ReleaseTimeout(timeout); err != nil && !errors.Is(err, ants.ErrPoolClosed) {
			errs = append(errs, fmt.Errorf("releasing worker pool: %w", err))
		}
	}
	return errors.Join(errs...)
}
