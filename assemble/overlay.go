package assemble

// WithOverlay makes Load read the configuration files named in overlay
// (absolute, clean paths) from memory instead of from disk, an editor's
// unsaved buffers (see package hcl's WithOverlay); scripts and file() still read
// the disk.
func WithOverlay(overlay map[string][]byte) Option {
	return func(o *Options) { o.Overlay = overlay }
}
