package natsstate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hookctl/hookctl/state/natsstate"
)

// TestForeignValue: a value another client wrote to the bucket that is
// not one JSON value, or holds a number no float64 holds, fails every
// read of the key with ErrBadValue (and not ErrUnavailable), leaves it as
// it is, and can be overwritten or deleted.
func TestForeignValue(t *testing.T) {
	st := openShared(t)
	url, bucket := sharedServer(t).URL(), bucketName(t)
	js, done := plainJS(t, url)
	defer done()
	ctx := context.Background()
	s := st.KV()
	for _, data := range []string{"", "hello", "1 2", `{"a":1}x`, "{", "1e400", `{"n":[1e400]}`} {
		if _, err := js.Publish(ctx, "$KV."+bucket+".foreign", []byte(data)); err != nil {
			t.Fatal(err)
		}
		reads := map[string]error{}
		_, _, reads["Get"] = s.Get(ctx, "foreign")
		_, reads["Incr"] = s.Incr(ctx, "foreign", 1, 0)
		_, reads["CompareAndSwap"] = s.CompareAndSwap(ctx, "foreign", nil, 1, 0)
		for op, err := range reads {
			if !errors.Is(err, natsstate.ErrBadValue) || errors.Is(err, natsstate.ErrUnavailable) {
				t.Errorf("%s over %q: %v, want ErrBadValue", op, data, err)
			}
		}
		if m := rawLast(t, url, bucket, "foreign"); m == nil || string(m.Data) != data {
			t.Errorf("the failed operations over %q changed the key", data)
		}
	}
	if err := s.Set(ctx, "foreign", 1, 0); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Get(ctx, "foreign"); v != int64(1) || !ok || err != nil {
		t.Errorf("Get after Set = %v, %v, %v", v, ok, err)
	}
	js.Publish(ctx, "$KV."+bucket+".foreign", []byte("x"))
	if err := s.Delete(ctx, "foreign"); err != nil {
		t.Errorf("Delete over a foreign value: %v", err)
	}
	if _, ok, err := s.Get(ctx, "foreign"); ok || err != nil {
		t.Errorf("Get after Delete = %v, %v", ok, err)
	}
}
