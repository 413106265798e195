package engine

import (
	"fmt"
	"testing"
)

func TestNameTable(t *testing.T) {
	names := map[string]EventID{}
	id := EventID(1)
	for _, s := range BuiltinEvents() {
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			names[n] = id
		}
		id++
	}
	for i := range 500 {
		names[fmt.Sprintf("custom.event.%d", i)] = id
		id++
	}
	tbl := newNameTable(names)
	for n, want := range names {
		if got, ok := tbl.lookup(n); !ok || got != want {
			t.Fatalf("%s: %d %v, want %d", n, got, ok, want)
		}
	}
	for _, n := range []string{"", "x", "PreToolUs", "PreToolUsE", "pretooluse", "custom.event.500", "Notification "} {
		if _, ok := tbl.lookup(n); ok {
			t.Fatalf("%q found", n)
		}
	}
	var empty nameTable
	if _, ok := empty.lookup("Stop"); ok {
		t.Fatal("empty table")
	}
}

func TestNameTableFallsBackWhenNamesCluster(t *testing.T) {
	names := map[string]EventID{}
	for i := range 3000 {
		names[fmt.Sprintf("e%07d", i)] = EventID(i + 1)
	}
	tbl := newNameTable(names)
	for n, want := range names {
		if got, ok := tbl.lookup(n); !ok || got != want {
			t.Fatalf("%s: %d %v", n, got, ok)
		}
	}
	if _, ok := tbl.lookup("e9999999"); ok {
		t.Fatal("found a missing name")
	}
}
