// Package claude holds the end-to-end test that runs the real Claude Code
// client (the version in CLIENT_VERSION, installed from npm by
// scripts/claude-install.sh) against a fake Messages API on loopback, with
// memscope's gate installed as its PreToolUse hook.
package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Request is one request the fake API received.
type Request struct {
	Method string
	Path   string
	Body   map[string]any
}

// Block is a content block of a scripted reply: text, or a tool_use.
type Block struct {
	Text  string
	Tool  string
	ID    string
	Input map[string]any
}

// Reply is a scripted assistant message.
type Reply struct {
	Blocks     []Block
	StopReason string
}

// FakeAPI answers the client's Messages API calls on loopback from a
// script, streaming server-sent events as the client asks, and keeps
// every request for the test to read.
type FakeAPI struct {
	URL    string
	srv    *http.Server
	script func(Request) Reply

	mu       sync.Mutex
	requests []Request
}

// StartFakeAPI listens on 127.0.0.1 (a free port) and serves script.
func StartFakeAPI(script func(Request) Reply) (*FakeAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &FakeAPI{URL: "http://" + ln.Addr().String(), script: script}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve), ReadHeaderTimeout: 10 * time.Second}
	go f.srv.Serve(ln)
	return f, nil
}

// Close stops the server.
func (f *FakeAPI) Close() error { return f.srv.Close() }

// Requests are the requests received so far.
func (f *FakeAPI) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

func (f *FakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	req := Request{Method: r.Method, Path: r.URL.Path}
	json.Unmarshal(raw, &req.Body)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, map[string]any{"data": []any{map[string]any{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5", "created_at": "2025-09-29T00:00:00Z"}}, "has_more": false})
	case r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": len(raw) / 4})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		f.message(w, req, len(raw))
	default:
		writeJSON(w, map[string]any{})
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// message answers a Messages call: JSON, or server-sent events when the
// request says "stream": true.
func (f *FakeAPI) message(w http.ResponseWriter, req Request, size int) {
	rep := f.script(req)
	model, _ := req.Body["model"].(string)
	usage := map[string]any{"input_tokens": size/4 + 1, "output_tokens": 12, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
	var content []any
	for i, b := range rep.Blocks {
		if b.Tool != "" {
			content = append(content, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Tool, "input": b.Input})
		} else {
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		}
		_ = i
	}
	id := fmt.Sprintf("msg_fake%06d", len(f.Requests()))
	if stream, _ := req.Body["stream"].(bool); !stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model, "content": content,
			"stop_reason": rep.StopReason, "stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	var b bytes.Buffer
	event := func(name string, v any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": size/4 + 1, "output_tokens": 1}}})
	for i, blk := range rep.Blocks {
		if blk.Tool != "" {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": blk.ID, "name": blk.Tool, "input": map[string]any{}}})
			in, _ := json.Marshal(blk.Input)
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		} else {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": blk.Text}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": rep.StopReason, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 12}})
	event("message_stop", map[string]any{"type": "message_stop"})
	w.Write(b.Bytes())
}

// HasTool reports whether a Messages request offers the model a tool.
func (r Request) HasTool(name string) bool {
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		if m, _ := t.(map[string]any); m != nil && m["name"] == name {
			return true
		}
	}
	return false
}

// ToolResults are the text of the tool_result blocks of the request's
// last message.
func (r Request) ToolResults() []string {
	msgs, _ := r.Body["messages"].([]any)
	if len(msgs) == 0 {
		return nil
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	blocks, _ := last["content"].([]any)
	var out []string
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		if m == nil || m["type"] != "tool_result" {
			continue
		}
		switch c := m["content"].(type) {
		case string:
			out = append(out, c)
		case []any:
			var s string
			for _, p := range c {
				if pm, _ := p.(map[string]any); pm != nil {
					t, _ := pm["text"].(string)
					s += t
				}
			}
			out = append(out, s)
		}
	}
	return out
}
