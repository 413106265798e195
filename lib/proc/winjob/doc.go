// Package winjob is Windows' job objects as hookctl uses them: a job that
// kills every process in it when its last handle closes (the process
// that holds it exits or is ended, TerminateProcess included), processes
// put into it while they are suspended, before they run an instruction,
// so that everything they start is in it too.
//
// lib/proc puts each hook's run into one; hookctl-client puts the hookctl
// it runs itself into one it holds, so that a host that ends the client
// ends hookctl and its hooks too. A job given a process already in
// another job (the host's) is nested in it (Windows 8 and later).
//
// The package is empty on other systems.
package winjob
