// Package filestamp tells whether files changed by their stamps: the
// modification time, size and ID of each (on unix the device, inode and
// change time; elsewhere a hash of the content), or its absence. A reloading watcher
// (assemble.Watcher) and an engine cache (the daemon's) stamp the files a
// configuration was loaded from and load it again when a stamp differs.
//
// A stamp is cheap on unix (two stats) and sees a rewrite that keeps both
// the size and the modification time (sed -i then touch -d, cp -p, rsync
// -a, tar, coarse timestamps): the file is another inode, or its change
// time, which no program can set back, moved.
package filestamp
