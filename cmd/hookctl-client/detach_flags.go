package main

// Windows' process creation flags for the daemon, spelled out here so
// that the choice among them (startBreakaway) is a pure function tested
// on every system; detach_windows.go checks at compile time that they
// are golang.org/x/sys/windows' values.
const (
	detachedProcess        uint32 = 0x00000008 // windows.DETACHED_PROCESS
	createNewProcessGroup  uint32 = 0x00000200 // windows.CREATE_NEW_PROCESS_GROUP
	createBreakawayFromJob uint32 = 0x01000000 // windows.CREATE_BREAKAWAY_FROM_JOB
)

// daemonFlags are the creation flags the daemon always gets: no console
// (no window, and not attached to the host's), its own process group
// (the Ctrl+C or Ctrl+Break the host's console sends its hook does not
// reach it).
const daemonFlags = detachedProcess | createNewProcessGroup

// startBreakaway starts the daemon (start, given the creation flags)
// out of the job the client runs in, if any, so that it outlives the
// call that started it: a host that ends its hook's job (kill on close)
// would otherwise kill the daemon every other client shares, mid-call.
// It tries daemonFlags with CREATE_BREAKAWAY_FROM_JOB first (which does
// nothing where the client is in no job); when the system refuses that
// (refused(err): ERROR_ACCESS_DENIED, the job does not allow breakaway)
// it starts the daemon again without it, inside the job: it then lives
// as long as that job does. brokeAway reports which start succeeded.
// Any other error is returned as it is, with no second start.
func startBreakaway[P any](start func(flags uint32) (P, error), refused func(error) bool) (p P, brokeAway bool, err error) {
	p, err = start(daemonFlags | createBreakawayFromJob)
	if err == nil {
		return p, true, nil
	}
	if !refused(err) {
		return p, false, err
	}
	p, err = start(daemonFlags)
	return p, false, err
}
