// Package export turns a session (across its compactions) or a project's
// memory into one readable document: Markdown, offline HTML or JSON.
package export
