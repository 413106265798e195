// Package bundle builds, verifies and opens signed policy bundles: an
// organisation signs its hook configuration once, with a minisign key
// (aead.dev/minisign), instead of every user trusting every file's hash.
//
// A bundle is a gzip-compressed tar file whose first entry is the
// manifest (ManifestName: a JSON list of every file's path relative to
// the configuration directory, size, SHA-256 and executable bit), whose
// second is the manifest's minisign signature (SignatureName), and whose
// other entries are the files, each under "files/". The files are those
// the configuration loads, as package trust finds them (its *.hcl files,
// the scripts its hooks name, the modules those require(), the files
// file() reads and the programs command handlers name inside the
// directory).
//
// Reading a bundle trusts nothing before the signature: the manifest is
// verified against the given public keys first, then every file entry
// must be a regular file the manifest lists, once, with its size and
// hash. An absolute path, "..", a symbolic or hard link, a device, a
// duplicate, an entry past the size limits (Limits: per file, in total
// and in count, counted on the decompressed stream, so a decompression
// bomb stops at the limit), a file missing from the manifest or a file
// the manifest lists but the bundle lacks is an error (*ManifestError);
// a signature that no key verifies is a *SignatureError. Open writes the
// verified files only inside its cache directory.
//
// A signed directory is a configuration directory carrying the manifest
// and its signature as the files hookctl-manifest.json and
// hookctl-manifest.json.minisig (SignDir writes them; VerifyDir checks
// them): the same promise without the archive.
package bundle
