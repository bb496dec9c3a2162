package memindex

// LineMaxChars is the length an index line should stay under
// (UTF-16 units, as the client counts): the client's own backfill cuts
// lines there, and its memory prompt asks for entries "under ~150
// characters".
const LineMaxChars = BackfillMaxLineChar
