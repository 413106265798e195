package engine

// WithoutFastPaths turns optimisations off, for the differential tests.
var WithoutFastPaths = withoutFastPaths
