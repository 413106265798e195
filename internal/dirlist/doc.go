// Package dirlist lists directories once per version of them, for a
// long-lived process that looks at the same directories on every call
// (the daemon's layer discovery): a call then stats a directory instead
// of opening and reading it.
//
// A version is the directory's stamp (package filestamp: device, inode,
// change time, size and modification time). A listing is kept only when
// the directory's stamp was the same before and after it was read and
// the directory's last change is older than the file system clock's tick:
// an entry added within one tick of a listing could otherwise leave the
// stamp as it was and stay unseen.
package dirlist
