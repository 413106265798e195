package natsstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/kv"
)

// Store is a kv.Store kept in a JetStream KV bucket, shared by every
// client of the bucket. It is safe for concurrent use. Get it from
// State.KV.
//
// Every key is the subject of its own messages; the last message of the
// subject is the key's value (its JSON form) and its revision. Reads ask
// the stream's leader, so they see every acknowledged write. Incr and
// CompareAndSwap read the value and its revision, then publish the new
// value on condition that the revision is still the last
// (Nats-Expected-Last-Subject-Sequence): if another client wrote the key
// in between, JetStream refuses the write and the operation starts over,
// after a short random pause, until it succeeds or its context ends. No
// update is ever lost.
type Store struct{ s *State }

var _ kv.Store = (*Store)(nil)

// Message headers the store writes and reads.
const (
	// hdrExpires holds a key's expiry, RFC 3339 in UTC. Its absence
	// means the key does not expire.
	hdrExpires   = "Hookctl-Expires"
	hdrTTL       = "Nats-TTL"
	hdrExpectSeq = "Nats-Expected-Last-Subject-Sequence"
	hdrOperation = "KV-Operation"
	hdrMarker    = "Nats-Marker-Reason"
)

// gcGrace is how long past its expiry an expiring key stays in the bucket
// before the server removes it. Expiry itself is decided by the clients'
// clocks; the grace covers clock differences between them and the server.
const gcGrace = time.Minute

// errConflict says a conditional write lost to a concurrent write.
var errConflict = errors.New("natsstate: concurrent write")

// entry is what a key holds.
type entry struct {
	seq   uint64 // the subject's last message; 0 when it has none
	live  bool   // present and not expired
	value any
	exp   time.Time // zero: no expiry
}

func (st *Store) begin(ctx context.Context, key string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if key == "" {
		return "", kv.ErrEmptyKey
	}
	subj := st.s.kvSubject + encodeKey(key)
	if len(subj) > maxSubjectLen {
		return "", fmt.Errorf("%w: %d bytes once encoded (at most %d)", ErrKeyTooLong, len(subj), maxSubjectLen)
	}
	return subj, nil
}

func checkTTL(ttl time.Duration) error {
	if ttl < 0 {
		return fmt.Errorf("natsstate: negative ttl %v", ttl)
	}
	return nil
}

func expiry(now time.Time, ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return now.Add(ttl)
}

type msgGetReply struct {
	reply
	Message *struct {
		Seq  uint64 `json:"seq"`
		Hdrs []byte `json:"hdrs"`
		Data []byte `json:"data"`
	} `json:"message"`
}

type pubAckReply struct {
	reply
	Stream string `json:"stream"`
	Seq    uint64 `json:"seq"`
}

type purgeReply struct {
	reply
	Success bool `json:"success"`
}

// load reads what key holds now.
func (st *Store) load(ctx context.Context, op, key, subj string, now time.Time) (entry, error) {
	req, err := json.Marshal(struct {
		LastBySubj string `json:"last_by_subj"`
	}{subj})
	if err != nil {
		return entry{}, err
	}
	var r msgGetReply
	err = st.s.call(ctx, op, key, &nats.Msg{Subject: st.s.msgGet, Data: req}, &r, false)
	if aerr := (*apiError)(nil); errors.As(err, &aerr) && aerr.ErrCode == errCodeNoMessage {
		return entry{}, nil
	}
	if err != nil {
		return entry{}, st.opErr(op, key, err)
	}
	if r.Message == nil {
		return entry{}, fmt.Errorf("natsstate: %s %q: JetStream reply without a message", op, key)
	}
	e := entry{seq: r.Message.Seq}
	var hdr nats.Header
	if len(r.Message.Hdrs) > 0 {
		if hdr, err = nats.DecodeHeadersMsg(r.Message.Hdrs); err != nil {
			return entry{}, fmt.Errorf("natsstate: %s %q: %w: headers: %w", op, key, ErrBadValue, err)
		}
	}
	if removed(hdr) {
		return e, nil
	}
	exp, err := parseExpires(hdr)
	if err != nil {
		return entry{}, fmt.Errorf("natsstate: %s %q: %w", op, key, err)
	}
	if !exp.IsZero() && !now.Before(exp) {
		return e, nil
	}
	v, err := decodeValue(r.Message.Data)
	if err != nil {
		return entry{}, fmt.Errorf("natsstate: %s %q: %w", op, key, err)
	}
	e.live, e.value, e.exp = true, v, exp
	return e, nil
}

// removed reports whether a message marks its key deleted: a KV delete
// or purge, or a marker the server left.
func removed(hdr nats.Header) bool {
	switch hdr.Get(hdrOperation) {
	case "DEL", "PURGE":
		return true
	}
	return hdr.Get(hdrMarker) != ""
}

func parseExpires(hdr nats.Header) (time.Time, error) {
	s := hdr.Get(hdrExpires)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: bad %s header %q", ErrBadValue, hdrExpires, s)
	}
	return t, nil
}

// live reports whether a message delivered by a consumer is a live key.
func live(hdr nats.Header, now time.Time) bool {
	if removed(hdr) {
		return false
	}
	exp, err := parseExpires(hdr)
	return err == nil && (exp.IsZero() || now.Before(exp))
}

// put publishes data as key's value with expiry exp (zero for none), on
// condition that the subject's last message is expect when expect is not
// nil. It returns errConflict when that condition failed.
func (st *Store) put(ctx context.Context, op, key, subj string, data []byte, exp, now time.Time, expect *uint64) error {
	m := nats.NewMsg(subj)
	m.Data = data
	if !exp.IsZero() {
		m.Header.Set(hdrExpires, exp.UTC().Format(time.RFC3339Nano))
		if st.s.serverTTL {
			// In whole seconds, rounded up; added as seconds so that a
			// ttl near the largest Duration does not overflow.
			rem := exp.Sub(now)
			secs := int64(rem / time.Second)
			if rem%time.Second != 0 {
				secs++
			}
			secs += int64(st.s.o.gcGrace / time.Second)
			m.Header.Set(hdrTTL, strconv.FormatInt(secs, 10))
		}
	}
	if expect != nil {
		m.Header.Set(hdrExpectSeq, strconv.FormatUint(*expect, 10))
	}
	var r pubAckReply
	err := st.s.call(ctx, op, key, m, &r, true)
	if aerr := (*apiError)(nil); errors.As(err, &aerr) && (aerr.ErrCode == errCodeWrongLastSeq || aerr.ErrCode == errCodeWrongLastSeqInFlight) {
		return errConflict
	}
	if err != nil {
		return st.opErr(op, key, err)
	}
	return nil
}

// opErr names the operation in an error that does not already.
func (st *Store) opErr(op, key string, err error) error {
	var e *Error
	if errors.As(err, &e) || errors.Is(err, ErrClosed) {
		return err
	}
	return fmt.Errorf("natsstate: %s %q: %w", op, key, err)
}

// Get implements kv.Store.
func (st *Store) Get(ctx context.Context, key string) (any, bool, error) {
	subj, err := st.begin(ctx, key)
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	e, err := st.load(ctx, "get", key, subj, st.s.o.now())
	if err != nil || !e.live {
		return nil, false, err
	}
	return e.value, true, nil
}

// Set implements kv.Store.
func (st *Store) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	subj, err := st.begin(ctx, key)
	if err != nil {
		return err
	}
	if err := checkTTL(ttl); err != nil {
		return err
	}
	data, err := encodeValue(value)
	if err != nil {
		return err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	now := st.s.o.now()
	return st.put(ctx, "set", key, subj, data, expiry(now, ttl), now, nil)
}

// Delete implements kv.Store. It purges the key's subject, leaving no
// marker behind.
func (st *Store) Delete(ctx context.Context, key string) error {
	subj, err := st.begin(ctx, key)
	if err != nil {
		return err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	req, err := json.Marshal(struct {
		Filter string `json:"filter"`
	}{subj})
	if err != nil {
		return err
	}
	var r purgeReply
	if err := st.s.call(ctx, "delete", key, &nats.Msg{Subject: st.s.purge, Data: req}, &r, true); err != nil {
		return st.opErr("delete", key, err)
	}
	if !r.Success {
		return fmt.Errorf("natsstate: delete %q: JetStream did not purge the key", key)
	}
	return nil
}

// Incr implements kv.Store. An existing key keeps its expiry, whatever
// ttl is.
func (st *Store) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	subj, err := st.begin(ctx, key)
	if err != nil {
		return 0, err
	}
	if err := checkTTL(ttl); err != nil {
		return 0, err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	for attempt := 0; ; attempt++ {
		now := st.s.o.now()
		e, err := st.load(ctx, "incr", key, subj, now)
		if err != nil {
			return 0, err
		}
		var cur int64
		exp := e.exp
		if e.live {
			n, isInt := e.value.(int64)
			if !isInt {
				return 0, fmt.Errorf("natsstate: incr %q: %w (have %s)", key, kv.ErrNotInteger, kv.Describe(e.value))
			}
			cur = n
		} else {
			exp = expiry(now, ttl)
		}
		sum := cur + delta
		if (delta > 0 && sum < cur) || (delta < 0 && sum > cur) {
			return 0, fmt.Errorf("natsstate: incr %q: %d%+d overflows int64", key, cur, delta)
		}
		err = st.put(ctx, "incr", key, subj, strconv.AppendInt(nil, sum, 10), exp, now, &e.seq)
		if err == nil {
			return sum, nil
		}
		if !errors.Is(err, errConflict) {
			return 0, err
		}
		if err := sleep(ctx, attempt); err != nil {
			return 0, fmt.Errorf("natsstate: incr %q: %d attempts lost to concurrent writers: %w", key, attempt+1, err)
		}
	}
}

// CompareAndSwap implements kv.Store.
func (st *Store) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	subj, err := st.begin(ctx, key)
	if err != nil {
		return false, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, err
	}
	want, err := kv.Normalize(old)
	if err != nil {
		return false, err
	}
	data, err := encodeValue(new)
	if err != nil {
		return false, err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	for attempt := 0; ; attempt++ {
		now := st.s.o.now()
		e, err := st.load(ctx, "cas", key, subj, now)
		if err != nil {
			return false, err
		}
		if want == nil {
			if e.live {
				return false, nil
			}
		} else if !e.live || !reflect.DeepEqual(e.value, want) {
			return false, nil
		}
		err = st.put(ctx, "cas", key, subj, data, expiry(now, ttl), now, &e.seq)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, errConflict) {
			return false, err
		}
		if err := sleep(ctx, attempt); err != nil {
			return false, fmt.Errorf("natsstate: cas %q: %d attempts lost to concurrent writers: %w", key, attempt+1, err)
		}
	}
}

// Keys implements kv.Store. It lists the bucket with a short-lived
// consumer that delivers the last message of every subject under the
// filter that prefix maps to (headers only), so listing a scope
// ("session/<id>/") reads that scope's keys alone; a prefix that ends
// inside a "/"-separated segment is filtered on its segments before the
// last and checked in full by the client. A key written while Keys runs
// may or may not be listed.
func (st *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx, cancel := st.s.opCtx(ctx)
	defer cancel()
	if _, err := st.s.linkCtx(); err != nil {
		if errors.Is(err, ErrClosed) {
			return nil, err
		}
		return nil, &Error{Op: "keys", Key: prefix, Err: err}
	}
	cons, err := st.listConsumer(ctx, prefix)
	if err != nil {
		return nil, err
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = st.s.js.DeleteConsumer(dctx, st.s.kvStream, cons.CachedInfo().Name)
	}()
	now := st.s.o.now()
	seen := map[string]bool{}
	pending := cons.CachedInfo().NumPending
	for attempt := 0; pending > 0; {
		if err := ctx.Err(); err != nil {
			return nil, &Error{Op: "keys", Key: prefix, Err: err}
		}
		batch, err := cons.FetchNoWait(int(min(pending, 512)))
		if err != nil {
			return nil, st.jsErr("keys", prefix, err)
		}
		got := 0
		for m := range batch.Messages() {
			got++
			if md, err := m.Metadata(); err == nil {
				pending = md.NumPending
			}
			k, ok := decodeKey(strings.TrimPrefix(m.Subject(), st.s.kvSubject))
			if ok && strings.HasPrefix(k, prefix) {
				seen[k] = live(m.Headers(), now)
			}
		}
		if err := batch.Error(); err != nil {
			return nil, st.jsErr("keys", prefix, err)
		}
		if got > 0 {
			attempt = 0
			continue
		}
		// Nothing came although some was pending: ask the consumer.
		info, err := cons.Info(ctx)
		if err != nil {
			return nil, st.jsErr("keys", prefix, err)
		}
		pending = info.NumPending
		if err := sleep(ctx, attempt); err != nil {
			return nil, &Error{Op: "keys", Key: prefix, Err: err}
		}
		attempt++
	}
	keys := []string{}
	for k, ok := range seen {
		if ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// listConsumer creates Keys' consumer. As call does for reads, it tries
// again, with backoff and until ctx ends, while the stream has no leader
// to answer (no responders, JetStream's "unavailable") and when no reply
// came within readAttempt (the cluster still believes in a leader that
// died, and drops the request): a new leader is being elected, as after
// the node leading the stream, or the cluster, died. Creating the
// consumer changes no key, so trying again is safe; a consumer created by
// a request whose reply was lost is removed by the server once inactive.
func (st *Store) listConsumer(ctx context.Context, prefix string) (jetstream.Consumer, error) {
	for attempt := 0; ; attempt++ {
		var cons jetstream.Consumer
		err := askRead(ctx, func(c context.Context) (err error) {
			cons, err = st.s.js.CreateConsumer(c, st.s.kvStream, jetstream.ConsumerConfig{
				DeliverPolicy:     jetstream.DeliverLastPerSubjectPolicy,
				AckPolicy:         jetstream.AckNonePolicy,
				FilterSubject:     st.s.kvSubject + prefixFilter(prefix),
				HeadersOnly:       true,
				MemoryStorage:     true,
				Replicas:          1,
				InactiveThreshold: 30 * time.Second,
			})
			return err
		})
		if err == nil {
			return cons, nil
		}
		unanswered := errors.Is(err, errNoReply)
		if !leaderless(err) && !unanswered || st.s.isClosed() {
			return nil, st.jsErr("keys", prefix, err)
		}
		if serr := sleep(ctx, attempt); serr != nil {
			return nil, &Error{Op: "keys", Key: prefix, Err: fmt.Errorf("%w (last: %w)", serr, err)}
		}
	}
}

// leaderless reports whether err of the jetstream client says the request
// was not carried out because nothing could answer it yet.
func leaderless(err error) bool {
	var aerr *jetstream.APIError
	return errors.Is(err, nats.ErrNoResponders) || errors.As(err, &aerr) && aerr.Code == statusUnavailable
}

// jsErr classifies an error of the jetstream client.
func (st *Store) jsErr(op, key string, err error) error {
	if st.s.isClosed() {
		return ErrClosed
	}
	if unreachable(err) {
		return &Error{Op: op, Key: key, Err: err}
	}
	return fmt.Errorf("natsstate: %s %q: %w", op, key, err)
}
