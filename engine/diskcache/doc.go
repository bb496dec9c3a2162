// Package diskcache keeps what memscope computed from a Claude home
// across runs, so a second `memscope stat` reads only what changed.
//
// The cache lives in the user's cache folder ($XDG_CACHE_HOME/memscope,
// else ~/.cache/memscope; Dir says where, and refuses a folder inside
// the Claude home), one file per home and kind of result. It is safe to
// delete at any moment: a file is replaced atomically, never synced (a
// crash may lose it, nothing more), and read whole; a file that is
// missing, torn, of another format or build, or fails its checksum is
// ignored and rebuilt (the checksum, a CRC-32C, is for damage, not a
// seal). It is bounded: one file is at most MaxFile, and
// after each save the folder's oldest files go until it holds at most
// MaxFiles files and MaxTotal bytes.
//
// Entries say which version of which file they came from with a
// model.FileStamp (size, mtime, change time, inode, a hash of the head),
// and callers use an entry only when the file's stamp is still Equal,
// and keep one only when the file was not written while it was read
// (model.Unchanged). PerFile is that rule for a list of files (stat's
// summaries, the sessions report's scans); engine/provenance follows it
// entry by entry, its entries being filled by two passes. PerFileFolders
// adds the write-once folders' rule (model.WriteOnceFolder): a folder
// whose identity, time and number of files are as stamped has its files
// answered without opening each (the secrets counts: pastes, backups).
package diskcache
