// Package command is the command handler kind: a hook that runs an
// external program, the kind every host's hooks use. The program reads
// the payload on stdin and answers with its exit status and output, in
// the convention Spec.Protocol names (a protocol.Convention: Claude
// Code's by default, a host's own for its scripts, opta's). It runs in a
// process group of its own with a deadline, its output bounded, in the
// project directory as Claude Code runs hooks (WorkDir), with HOOKCTL_*
// variables (and a context's WithEnv) in its environment; the payload is
// never put into a command line. A program that cannot start is a
// failure to run, never a decision.
package command
