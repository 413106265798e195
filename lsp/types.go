package lsp

import "encoding/json"

// The Language Server Protocol types the server speaks (LSP 3.17), only
// the members it reads or writes.

// Position is a 0-based line and a character offset in UTF-16 code units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span of a document, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range of a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// VersionedTextDocumentIdentifier names a version of a document.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// TextDocumentPositionParams is a position in a document.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// DidOpenTextDocumentParams are textDocument/didOpen's.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// TextDocumentContentChangeEvent is one change: the whole text when Range
// is nil, else the text replacing Range.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidChangeTextDocumentParams are textDocument/didChange's.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// DidSaveTextDocumentParams are textDocument/didSave's.
type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

// DidCloseTextDocumentParams are textDocument/didClose's.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// Diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Diagnostic is a problem at a range of a document.
type Diagnostic struct {
	Range           Range            `json:"range"`
	Severity        int              `json:"severity,omitempty"`
	Code            string           `json:"code,omitempty"`
	CodeDescription *CodeDescription `json:"codeDescription,omitempty"`
	Source          string           `json:"source,omitempty"`
	Message         string           `json:"message"`
	Data            *DiagnosticData  `json:"data,omitempty"`
}

// CodeDescription links a diagnostic's code to its documentation.
type CodeDescription struct {
	HRef string `json:"href"`
}

// DiagnosticData carries what a client may offer as a quick fix.
type DiagnosticData struct {
	Suggestion string `json:"suggestion,omitempty"`
}

// PublishDiagnosticsParams are textDocument/publishDiagnostics's.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Completion item kinds used.
const (
	KindText     = 1
	KindMethod   = 2
	KindFunction = 3
	KindField    = 5
	KindVariable = 6
	KindClass    = 7
	KindModule   = 9
	KindProperty = 10
	KindValue    = 12
	KindEnum     = 13
	KindKeyword  = 14
	KindSnippet  = 15
	KindEvent    = 23
)

// Insert text formats.
const (
	PlainText = 1
	Snippet   = 2
)

// MarkupContent is documentation text in markdown.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// TextEdit replaces a range.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// CompletionItem is one proposal.
type CompletionItem struct {
	Label            string         `json:"label"`
	Kind             int            `json:"kind,omitempty"`
	Detail           string         `json:"detail,omitempty"`
	Documentation    *MarkupContent `json:"documentation,omitempty"`
	InsertText       string         `json:"insertText,omitempty"`
	InsertTextFormat int            `json:"insertTextFormat,omitempty"`
	TextEdit         *TextEdit      `json:"textEdit,omitempty"`
	FilterText       string         `json:"filterText,omitempty"`
	SortText         string         `json:"sortText,omitempty"`
}

// CompletionList is textDocument/completion's answer.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// Hover is textDocument/hover's answer.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// InitializeParams are initialize's, the members read.
type InitializeParams struct {
	ProcessID *int            `json:"processId"`
	RootURI   *string         `json:"rootUri"`
	Options   json.RawMessage `json:"initializationOptions,omitempty"`
}

// InitializeResult is initialize's answer.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ServerCapabilities are what the server offers.
type ServerCapabilities struct {
	TextDocumentSync   TextDocumentSyncOptions `json:"textDocumentSync"`
	CompletionProvider CompletionOptions       `json:"completionProvider"`
	HoverProvider      bool                    `json:"hoverProvider"`
	DefinitionProvider bool                    `json:"definitionProvider"`
}

// TextDocumentSyncOptions say how documents are synchronised.
type TextDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"` // 1 full, 2 incremental
	Save      SaveOptions `json:"save"`
}

// SaveOptions ask for the text on save.
type SaveOptions struct {
	IncludeText bool `json:"includeText"`
}

// CompletionOptions give the trigger characters.
type CompletionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters"`
}

// CancelParams are $/cancelRequest's.
type CancelParams struct {
	ID json.RawMessage `json:"id"`
}
