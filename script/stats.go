package script

import "time"

// PoolStats is a snapshot of a pool's runtimes, for health checks: a pool
// whose runtimes are all in use, with an old call among them, is wedged.
type PoolStats struct {
	// Size is the most runtimes the pool runs at once.
	Size int
	// InUse is how many are checked out (loading or running a hook).
	InUse int
	// Idle is how many warm runtimes wait for a call.
	Idle int
	// OldestCall is how long the longest-running current call has been
	// running (0 when none is).
	OldestCall time.Duration
	// Created is how many runtimes the pool has made, and CreateTime the
	// time making them took (goja's setup, the standard library, the
	// lockdown): what a cold process pays before its first script hook.
	Created    int
	CreateTime time.Duration
	// Discarded is how many runtimes the pool has dropped because a call
	// on them broke (an interrupt, a panic, a stack overflow past the
	// script's handling, promise jobs left over): never reused.
	Discarded int
}

// Stats returns the pool's current usage.
func (p *Pool) Stats() PoolStats {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	st := PoolStats{Size: p.size, InUse: len(p.slots), Idle: len(p.idle), Created: p.created, CreateTime: p.createTime, Discarded: p.discarded}
	for _, vm := range p.vms {
		if !vm.since.IsZero() {
			st.OldestCall = max(st.OldestCall, now.Sub(vm.since))
		}
	}
	return st
}
