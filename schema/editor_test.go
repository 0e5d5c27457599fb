package schema_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lsp is a minimal Language Server Protocol client over a server's stdio:
// enough to open documents, read the diagnostics the server publishes and
// ask for completions and hovers.
type lsp struct {
	t     *testing.T
	in    io.WriteCloser
	mu    sync.Mutex
	id    int
	reply map[int]chan json.RawMessage
	diags chan published
	done  chan struct{}
}

type published struct {
	URI         string `json:"uri"`
	Diagnostics []struct {
		Range struct {
			Start struct{ Line, Character int } `json:"start"`
		} `json:"range"`
		Message  string `json:"message"`
		Severity int    `json:"severity"`
	} `json:"diagnostics"`
}

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  json.RawMessage  `json:"error,omitempty"`
}

// yamlSettings is what the client answers to workspace/configuration.
var yamlSettings = map[string]any{
	"validate": true, "completion": true, "hover": true,
	"schemaStore": map[string]any{"enable": false},
}

func startLSP(t *testing.T, command string, args ...string) *lsp {
	cmd := exec.Command(command, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lsp{t: t, in: in, reply: map[int]chan json.RawMessage{}, diags: make(chan published, 16), done: make(chan struct{})}
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	go c.read(bufio.NewReader(out))
	return c
}

func (c *lsp) write(m any) {
	data, err := json.Marshal(m)
	if err != nil {
		c.t.Error(err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(data), data)
}

func (c *lsp) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			// A request from the server: configuration gets the settings,
			// the rest (capability registration, progress) a null result.
			var result any
			if m.Method == "workspace/configuration" {
				var p struct{ Items []any }
				json.Unmarshal(m.Params, &p)
				list := make([]any, len(p.Items))
				for i := range list {
					list[i] = yamlSettings
				}
				result = list
			}
			c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.Method == "textDocument/publishDiagnostics":
			var p published
			if json.Unmarshal(m.Params, &p) == nil {
				c.diags <- p
			}
		case m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			ch := c.reply[id]
			c.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		}
	}
}

func (c *lsp) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.mu.Lock()
	c.id++
	id := c.id
	ch := make(chan json.RawMessage, 1)
	c.reply[id] = ch
	c.mu.Unlock()
	c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r
	case <-c.done:
		c.t.Fatalf("%s: the server exited", method)
	case <-time.After(60 * time.Second):
		c.t.Fatalf("%s: no answer in 60s", method)
	}
	return nil
}

func (c *lsp) notify(method string, params any) {
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// diagnostics waits for the diagnostics of uri published after version
// changes; yaml-language-server publishes once per change.
func (c *lsp) diagnostics(uri string) published {
	c.t.Helper()
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri {
				return p
			}
		case <-c.done:
			c.t.Fatal("the server exited")
		case <-time.After(60 * time.Second):
			c.t.Fatalf("no diagnostics for %s in 60s", uri)
		}
	}
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// position returns the 0-based line and character just after the first
// occurrence of marker in text.
func position(t *testing.T, text, marker string) map[string]int {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q not in the document", marker)
	}
	before := text[:i+len(marker)]
	line := strings.Count(before, "\n")
	return map[string]int{"line": line, "character": len(before) - strings.LastIndex(before, "\n") - 1}
}

// yaml-language-server, the server behind VS Code's YAML extension and
// most editors' YAML support, loads the schema from examples/site.yaml's
// own modeline (../schema/site.schema.json), finds the example valid,
// reports mistakes typed into it at their lines, completes keys with the
// schema's descriptions, and shows them on hover. The file on disk is
// never changed: edits are sent to the server only.
func TestYAMLLanguageServer(t *testing.T) {
	mods := nodeModules(t, "yaml-language-server")
	server := filepath.Join(mods, "yaml-language-server", "bin", "yaml-language-server")
	example, err := filepath.Abs("../examples/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	uri := fileURI(example)
	root, _ := filepath.Abs("..")

	c := startLSP(t, "node", server, "--stdio")
	c.call("initialize", map[string]any{
		"processId": os.Getpid(),
		"rootUri":   fileURI(root),
		"capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true},
			"textDocument": map[string]any{
				"completion":         map[string]any{"completionItem": map[string]any{"documentationFormat": []string{"plaintext"}}},
				"hover":              map[string]any{"contentFormat": []string{"plaintext"}},
				"publishDiagnostics": map[string]any{},
			},
		},
	})
	c.notify("initialized", map[string]any{})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"yaml": yamlSettings}})

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	if p := c.diagnostics(uri); len(p.Diagnostics) > 0 {
		t.Errorf("examples/site.yaml: %d diagnostics, want none: %+v", len(p.Diagnostics), p.Diagnostics)
	}

	// Hover on a key shows its description from the schema: proof the
	// modeline's relative reference loaded the repository's file.
	hover := string(c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": position(t, text, "\nsitemaps")}))
	if !strings.Contains(hover, "absolute http(s) URLs only") {
		t.Errorf("hover on sitemaps: %s", hover)
	}

	// Mistakes the schema can name, typed into the document.
	bad := strings.NewReplacer(
		"  x-contact.txt:", "  contact.txt:",
		"names: [unhipbot]", "names: [Googlebot/2.1]",
		`expires: "2027-06-01T00:00:00Z"`, "expires: tomorrow",
		"sitemaps: [https://www.fict.org/sitemap.xml]", "sitemaps: [/sitemap.xml]",
		"\nicons:", "\nicon:",
	).Replace(text)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": bad}},
	})
	p := c.diagnostics(uri)
	got := map[int][]string{}
	for _, d := range p.Diagnostics {
		got[d.Range.Start.Line] = append(got[d.Range.Start.Line], d.Message)
	}
	for _, want := range []struct{ marker, message string }{
		{"contact.txt:", "pattern of \"^x-"},
		{"Googlebot/2.1", "pattern"},
		{"expires: tomorrow", "pattern"},
		{"sitemaps: [/sitemap.xml", "pattern"},
		{"\nicon:", "icon"},
	} {
		line := position(t, bad, want.marker)["line"]
		if !strings.Contains(strings.Join(got[line], "\n"), want.message) {
			t.Errorf("line %d (%s): diagnostics %q, want one mentioning %q", line+1, strings.TrimSpace(want.marker), got[line], want.message)
		}
	}
	if len(p.Diagnostics) != 5 {
		t.Errorf("%d diagnostics, want 5: %v", len(p.Diagnostics), got)
	}

	// Completion in the security_txt block offers the keys not yet used,
	// with their descriptions.
	withBlank := strings.Replace(text, "    policy: https://www.fict.org/security-policy\n", "    policy: https://www.fict.org/security-policy\n    \n", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": withBlank}},
	})
	c.diagnostics(uri)
	pos := position(t, withBlank, "security-policy\n    ")
	var list struct {
		Items []struct {
			Label         string `json:"label"`
			Documentation any    `json:"documentation"`
		} `json:"items"`
	}
	if err := json.Unmarshal(c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}), &list); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{}
	for _, it := range list.Items {
		doc, _ := json.Marshal(it.Documentation)
		labels[it.Label] = string(doc)
	}
	for _, k := range []string{"acknowledgments", "canonical", "csaf", "encryption", "hiring"} {
		if _, ok := labels[k]; !ok {
			t.Errorf("completion lacks %q: %v", k, labels)
		}
	}
	if !strings.Contains(labels["hiring"], "security jobs") {
		t.Errorf("completion of hiring has documentation %s, want its description", labels["hiring"])
	}
	if _, ok := labels["contact"]; ok {
		t.Errorf("completion offers contact, which the block already has")
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
}
