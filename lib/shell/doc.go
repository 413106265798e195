// Package shell parses the shell command lines that a coding agent is about
// to run, so that hooks can ask which programs a line really executes.
//
// A command line such as
//
//	cd repo && sudo env FOO=1 bash -c 'rm -rf ~' | tee log.txt
//
// is parsed with a real bash parser (mvdan.cc/sh/v3/syntax) and flattened
// into a list of [Segment] values, one per simple command, in source order.
// Commands nested anywhere in the line are included: inside ( ... ) and
// { ...; } groups, $( ... ) and `...` command substitutions, <( ... ) and
// >( ... ) process substitutions, if/while/until/for/case bodies, function
// bodies and [[ ]] or (( )) expressions.
//
// Commands that only launch another command are peeled off and recorded in
// [Segment.Wrappers], so that the segment describes the program that really
// runs: "sudo rm -rf /" yields a segment named "rm" with Wrappers ["sudo"].
// The recognised launchers are sudo, doas, env, xargs, time, nohup, nice,
// ionice, timeout, command, exec, builtin, stdbuf, chroot, watch and flock,
// each with its own options skipped. Shells given a script (bash, sh, zsh,
// dash, ksh and similar, with -c STRING or reading a here-document) have the
// script parsed recursively, as do the arguments of eval, and the commands
// found there are marked [Segment.Subshell].
//
// Each segment also carries the directory changes (cd, pushd, popd, and
// calls of shell functions that make them) that may have run before it in
// its shell, in [Segment.Dirs]: a subshell, a pipeline, a substitution or a
// script run by another shell restores the directory for what follows it;
// && runs the next command only where cd succeeded, while ; and || also
// reach it where cd failed, which [Chdir.Maybe] records.
//
// Quoted text is never mistaken for a command: in
//
//	git commit -m "fix; rm -rf x"
//
// the only command is git. Here-document bodies are data, except where a
// shell reads them as its script, or where an unquoted body contains a
// command substitution that the shell would run.
//
// [Parse] reports an error only when the line is not valid bash. [Commands]
// and [HasCommand] never fail: on a line that does not parse they fall back
// to a conservative tokenizer that splits on the shell's control operators
// without regard to quoting, so a malformed line yields too many command
// names rather than too few. [Words] splits a single argument string into
// words the way the shell would, for callers that receive command fragments
// rather than whole lines.
//
// All functions are safe for concurrent use; the package keeps no mutable
// state.
package shell
