package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// Session ids of the demo, fixed so docs and tests can name them.
const (
	SessionCheckout = "3b9e2c41-8f0d-4a6e-9c1b-5d7f20a4e611"
	SessionRewind   = "7c0d5e92-1a3b-4f8c-b2d4-9e6f13a8c702"
	SessionNotes    = "a41f8e07-6c2d-4b9a-8e3f-0d1c72b5f903"
	SessionInfra    = "e5b27d19-4c8a-4e0f-a6d1-3f9b84c0e214"
)

// sourceFile fakes the text of a source file so tool results have a
// realistic size. Its lines are appended, not formatted: the checkout
// session reads 70 of them, 500 to 1 000 lines each, and fmt made them
// a third of the time a demo takes to materialize.
func sourceFile(name string, lines int) string {
	b := make([]byte, 0, 64+lines*40)
	b = append(b, "// Package "...)
	b = append(b, name...)
	b = append(b, " is part of the shop API.\npackage "...)
	b = append(b, name...)
	b = append(b, "\n\n"...)
	for i := 0; i < lines; i++ {
		switch i % 6 {
		case 0:
			b = append(b, "// step"...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, " applies rule "...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, " to the basket before tax.\n"...)
		case 1:
			b = append(b, "func step"...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, "(ctx context.Context, b *Basket) error {\n"...)
		case 2:
			b = append(b, "\tif err := b.apply(ctx, rule"...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, "); err != nil {\n"...)
		case 3:
			b = append(b, "\t\treturn fmt.Errorf(\"apply rule "...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, " to basket %s: %w\", b.ID, err)\n"...)
		case 4:
			b = append(b, "\t}\n"...)
		default:
			b = append(b, "\treturn nil\n}\n"...)
		}
	}
	return string(b)
}

func (w *writer) transcripts(l Layout) {
	shop := l.Project("shop-api")
	shopDir := filepath.Join(l.Home, "projects", model.Slug(shop))

	// A long working session: two autocompactions, a microcompaction and a
	// partial /compact near the end.
	b := newTranscript(SessionCheckout, shop, w.now.AddDate(0, 0, -9))
	b.metadata("Bundle discounts in the pricing service")
	b.context = w.contextFiles(l, "shop-api")
	goStyle, _ := files.ReadFile("_files/user/rules/go-style.md")
	topics := []string{"pricing", "cart", "payments", "search", "store", "orders", "tax", "promo"}
	summaries := []string{
		"The user is moving bundle discounts from internal/cart/legacy.go into the pricing service. Decided: rules live in internal/pricing/rules.go; PriceBasket is the entry point. Open: tax rounding for bundles.",
		"Bundle discounts now apply before tax. The user asked for table tests over copy-pasted cases and rejected mocking Postgres. Error seen: rounding mismatch of one cent on EUR baskets; fixed by rounding per line.",
		"Bundle discounts are wired through cart, payments and search. Remaining: JPY rounding and the bundles migration. The user prefers terse answers and no recap.",
	}
	compactions := 0
	for turn := 0; turn < 70; turn++ {
		topic := topics[turn%len(topics)]
		b.prompt(fmt.Sprintf("look at the %s package and tell me where bundle discounts should hook in (step %d)", topic, turn+1))
		if turn == 0 {
			b.contextAttachments(b.context)
		}
		b.reply("Reading the package first.", toolCall{
			name:   "Read",
			input:  map[string]any{"file_path": filepath.Join(shop, "internal", topic, topic+".go")},
			result: sourceFile(topic, 500+turn*7),
		}, toolCall{
			name:   "Grep",
			input:  map[string]any{"pattern": "Discount", "path": filepath.Join(shop, "internal")},
			result: strings.Repeat(fmt.Sprintf("internal/%s/%s.go:42: // Discount hooks\n", topic, topic), 30),
		})
		if turn == 0 {
			// Reading a .go file brought in the user's Go rule.
			b.nestedMemory(contextFile{path: filepath.Join(l.Home, "rules", "go-style.md"), kind: "User", content: string(goStyle)}, []string{"**/*.go"})
		}
		b.reply(fmt.Sprintf("The %s package calls the pricing service once per basket; the hook belongs in PriceBasket.", topic))
		if b.autoCompactIfNeeded(summaries[compactions%len(summaries)]) {
			compactions++
		}
		if turn == 60 {
			b.microcompact(21000)
		}
	}
	keepUser := b.prompt("summarize what is left for the bundle discount work")
	b.reply("Left: tax rounding tests for JPY, and the migration for the bundles table.")
	keepReply := b.leaf
	b.compact("manual", "Bundle discount work is nearly done: rules in internal/pricing/rules.go, rounding per line. Left: JPY rounding tests and the bundles migration.", []string{keepUser, keepReply})
	b.prompt("write the JPY rounding test")
	b.reply("Added TestRoundJPY with three baskets.", toolCall{name: "Edit", input: map[string]any{"file_path": filepath.Join(shop, "internal/pricing/round_test.go")}, result: "The file has been updated."})
	w.file(filepath.Join(shopDir, SessionCheckout+".jsonl"), b.buf.Bytes(), 9)

	// A short session with a rewind (two branches from one prompt) and a
	// subagent working on a sidechain.
	r := newTranscript(SessionRewind, shop, w.now.AddDate(0, 0, -2))
	r.metadata("Webhook retry storm")
	r.context = w.contextFiles(l, "shop-api")
	r.prompt("why did the payment webhook create duplicate orders yesterday?")
	r.contextAttachments(r.context)
	r.reply("Checking the webhook handler.", toolCall{name: "Read", input: map[string]any{"file_path": filepath.Join(shop, "internal/payments/webhook.go")}, result: sourceFile("payments", 120)})
	fork := r.parent
	r.prompt("add an idempotency key check to the handler")
	r.reply("Added a check on the provider's event id before creating the order.")
	// The user rewound to before that prompt and asked differently.
	r.parent = fork
	r.prompt("first write a failing test that reproduces the duplicate")
	r.sidechain = true
	r.prompt("Find every place that creates an order from a webhook event.")
	r.reply("Two places: internal/payments/webhook.go and internal/orders/import.go.")
	r.sidechain = false
	r.parent = fork
	testTurn := r.prompt("first write a failing test that reproduces the duplicate (using the subagent's findings)")
	r.reply("Wrote TestWebhookRetryCreatesOneOrder; it fails as expected.",
		toolCall{name: "Write", input: map[string]any{"file_path": filepath.Join(shop, "internal/payments/webhook_test.go")}, result: "File created."})
	// File history for /rewind (the Files pane): the test file did not
	// exist before this turn; webhook.go is backed up before the fix.
	r.fileEdit(testTurn, "internal/payments/webhook_test.go", 1, false)
	// Prompts worth remembering, for `memscope extract` and the flush.
	fixTurn := r.prompt("Yes, exactly, keep writing the failing test before the fix. Remember that every payment webhook handler must be idempotent on the provider's event id, because the provider retries a delivery for up to three days.")
	r.reply("Understood. The handler now records the event id before it creates the order.",
		toolCall{name: "Edit", input: map[string]any{"file_path": filepath.Join(shop, "internal/payments/webhook.go")}, result: "The file has been updated."})
	backup := r.fileEdit(fixTurn, "internal/payments/webhook.go", 1, true)
	w.file(filepath.Join(l.Home, model.FileHistoryDir, SessionRewind, backup), []byte(webhookBefore), 2)
	w.file(filepath.Join(shop, "internal/payments/webhook.go"), []byte(webhookAfter), 2)
	w.file(filepath.Join(shop, "internal/payments/webhook_test.go"), []byte(webhookTest), 2)
	r.prompt("No, don't add a retry loop around the order insert, because the provider already retries with backoff and our own retries made the storm worse.")
	r.reply("Removed the retry loop; a failed insert now returns 500 and the provider retries.")
	r.prompt("The on-call runbook for webhook incidents is https://shop.atlassian.net/wiki/spaces/SHOP/pages/4411/Webhook+incidents. We decided to page the payments rotation for every duplicate order from now on.")
	r.reply("Added the runbook link to the handler's package doc.")
	w.file(filepath.Join(shopDir, SessionRewind+".jsonl"), r.buf.Bytes(), 2)
	sub := newTranscript(SessionRewind, shop, w.now.AddDate(0, 0, -2))
	sub.sidechain = true
	sub.prompt("Find every place that creates an order from a webhook event.")
	sub.reply("Searching.", toolCall{name: "Grep", input: map[string]any{"pattern": "CreateOrder"}, result: "internal/payments/webhook.go:88\ninternal/orders/import.go:41\n"})
	sub.reply("Two places: internal/payments/webhook.go and internal/orders/import.go.")
	w.file(filepath.Join(shopDir, SessionRewind, "subagents", "agent-a1b2c3d4.jsonl"), sub.buf.Bytes(), 2)
	// What 2.1.331 writes beside a subagent's transcript.
	w.file(filepath.Join(shopDir, SessionRewind, "subagents", "agent-a1b2c3d4.meta.json"),
		[]byte(`{"agentType":"Explore","isBuiltIn":true,"description":"Find webhook order creation","toolUseId":"toolu_01Demo5ubAgent","spawnDepth":1,"model":"claude-haiku-4-5","finished":true}`+"\n"), 2)

	// The notes site: one manual compaction.
	notes := l.Project("notes-site")
	n := newTranscript(SessionNotes, notes, w.now.AddDate(0, 0, -6))
	n.metadata("Fix broken anchors")
	n.context = w.contextFiles(l, "notes-site")
	for i := 0; i < 6; i++ {
		n.prompt(fmt.Sprintf("fix the broken anchors on page %d", i+1))
		if i == 0 {
			n.contextAttachments(n.context)
		}
		n.reply("Fixed the anchors.", toolCall{name: "Read", input: map[string]any{"file_path": filepath.Join(notes, fmt.Sprintf("site/content/page%d.md", i+1))}, result: strings.Repeat("A paragraph about the notes site with a [link](#anchor).\n", 200)})
	}
	n.compact("manual", "Anchors fixed on six pages; the link checker passes.", nil)
	n.prompt("run the link checker again")
	n.reply("All links pass.")
	w.file(filepath.Join(l.Home, "projects", model.Slug(notes), SessionNotes+".jsonl"), n.buf.Bytes(), 6)

	// Infra: a tool result too large for the context, saved to disk.
	infra := l.Project("infra")
	infraDir := filepath.Join(l.Home, "projects", model.Slug(infra))
	in := newTranscript(SessionInfra, infra, w.now.AddDate(0, 0, -12))
	in.metadata("Terraform plan review")
	big := strings.Repeat("  # aws_instance.web will be updated in-place\n  ~ tags = { \"team\" = \"shop\" }\n", 700)
	in.prompt("run terraform plan and tell me what changes")
	in.reply("Running the plan.", toolCall{name: "Bash", input: map[string]any{"command": "terraform plan"}, result: big[:2000] + "\n\n[Output saved to " + filepath.Join(infraDir, SessionInfra, "tool-results", "toolu_plan.txt") + "]"})
	in.reply("The plan only retags instances; nothing is replaced.")
	w.file(filepath.Join(infraDir, SessionInfra+".jsonl"), in.buf.Bytes(), 12)
	w.file(filepath.Join(infraDir, SessionInfra, "tool-results", "toolu_plan.txt"), []byte(big), 12)
}

// contextFiles are the instruction and memory files the client attaches
// for a demo project, with their real text, as its instructions
// attachment lists them: each CLAUDE.md with its imports after it, the
// rules without paths:, CLAUDE.local.md, and MEMORY.md as it loads (cut
// to the caps, with the warning).
func (w *writer) contextFiles(l Layout, project string) []contextFile {
	read := func(p string) string {
		data, _ := files.ReadFile(p)
		return string(data)
	}
	tree := func(rel string) contextFile {
		return contextFile{path: filepath.Join(l.Project(project), filepath.FromSlash(rel)), kind: "Project", content: read("_files/" + project + "/tree/" + rel)}
	}
	out := []contextFile{
		{path: filepath.Join(l.Home, "CLAUDE.md"), kind: "User", content: read("_files/user/CLAUDE.md")},
		{path: filepath.Join(l.Home, "rules", "review.md"), kind: "User", content: read("_files/user/rules/review.md")},
		tree("CLAUDE.md"),
	}
	switch project {
	case "shop-api":
		local := tree("CLAUDE.local.md")
		local.kind = "Local"
		out = append(out, tree("docs/architecture.md"), tree("docs/storage.md"), tree(".claude/rules/migrations.md"), local)
	case "notes-site":
		out = append(out, tree("docs/style.md"))
	}
	index := memindex.CapIndex([]byte(read("_files/" + project + "/memory/MEMORY.md")))
	return append(out, contextFile{path: filepath.Join(l.Home, "projects", model.Slug(l.Project(project)), "memory", "MEMORY.md"), kind: "AutoMem", content: index.Content})
}

// pasteHash is the client's paste-cache key: the first 16 hex digits of
// the sha256 of the content.
func pasteHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:16]
}

func (w *writer) history(l Layout) {
	type entry struct {
		project string
		session string
		display string
		pastes  map[string]any
		daysAgo float64
	}
	var entries []entry
	shop, notes, infra := l.Project("shop-api"), l.Project("notes-site"), l.Project("infra")

	logExcerpt := strings.Repeat("2026-11-20T14:02:11Z ERROR webhook: duplicate event evt_7731 for order 5521 (retry 2)\n", 40)
	stack := strings.Repeat("goroutine 1 [running]:\nmain.handle(...)\n\t/app/internal/payments/webhook.go:88 +0x1d\n", 12)
	schema := "CREATE TABLE bundles (\n  id bigserial primary key,\n  name text not null\n);\n"
	orphan := strings.Repeat("an old paste that no history line refers to any more\n", 30)
	mismatchOriginal := strings.Repeat("price rule export, version one\n", 60)

	for i := 0; i < 130; i++ {
		entries = append(entries, entry{project: shop, session: SessionCheckout,
			display: fmt.Sprintf("look at the %s package and tell me where bundle discounts should hook in (step %d)", []string{"pricing", "cart", "payments", "search"}[i%4], i+1),
			daysAgo: 9 - float64(i)*0.01})
	}
	entries = append(entries,
		entry{project: shop, session: SessionRewind, display: "[Pasted text #1 +40 lines] why did the payment webhook create duplicate orders yesterday?",
			pastes: map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": pasteHash(logExcerpt)}}, daysAgo: 2},
		entry{project: shop, session: SessionRewind, display: "[Pasted text #1 +36 lines] this is the panic from staging",
			pastes: map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": pasteHash(stack)}}, daysAgo: 1.9},
		entry{project: shop, session: SessionRewind, display: "[Pasted text #1 +4 lines] add this table to the migration",
			pastes: map[string]any{"1": map[string]any{"id": 1, "type": "text", "content": schema}}, daysAgo: 1.8},
		entry{project: shop, session: "", display: "[Pasted text #1 +60 lines] compare with the old rule export",
			pastes: map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": pasteHash(mismatchOriginal)}}, daysAgo: 40},
		entry{project: shop, session: "", display: "[Pasted text #1 +120 lines] [Image #2] what is wrong in this dashboard?",
			pastes: map[string]any{
				"1": map[string]any{"id": 1, "type": "text", "contentHash": "9f86d081884c7d65"},
				"2": map[string]any{"id": 2, "type": "image", "mediaType": "image/png", "filename": "grafana.png"},
			}, daysAgo: 45},
		entry{project: notes, session: SessionNotes, display: "fix the broken anchors on page 1", daysAgo: 6},
		entry{project: notes, session: SessionNotes, display: "run the link checker again", daysAgo: 5.9},
		entry{project: infra, session: SessionInfra, display: "run terraform plan and tell me what changes", daysAgo: 12},
	)
	// The client appends in time order.
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].daysAgo > entries[j].daysAgo })
	var buf strings.Builder
	last := int64(0)
	for _, e := range entries {
		ts := w.now.Add(-time.Duration(e.daysAgo * float64(24*time.Hour))).UnixMilli()
		if ts <= last {
			ts = last + 1
		}
		last = ts
		rec := map[string]any{"display": e.display, "pastedContents": map[string]any{}, "timestamp": ts, "project": e.project}
		if e.pastes != nil {
			rec["pastedContents"] = e.pastes
		}
		if e.session != "" {
			rec["sessionId"] = e.session
		}
		data, _ := json.Marshal(rec)
		buf.Write(data)
		buf.WriteByte('\n')
	}
	w.file(filepath.Join(l.Home, "history.jsonl"), []byte(buf.String()), 0)

	cache := filepath.Join(l.Home, "paste-cache")
	w.file(filepath.Join(cache, pasteHash(logExcerpt)+".txt"), []byte(logExcerpt), 2)
	w.file(filepath.Join(cache, pasteHash(stack)+".txt"), []byte(stack), 2)
	w.file(filepath.Join(cache, pasteHash(orphan)+".txt"), []byte(orphan), 20)
	// The rule export was edited by hand after it was cached: its content no
	// longer matches its name.
	w.file(filepath.Join(cache, pasteHash(mismatchOriginal)+".txt"), []byte(strings.Replace(mismatchOriginal, "version one", "version two", 1)), 40)
	// 9f86d081884c7d65 was swept by cleanupPeriodDays: the history line
	// points at a paste that is gone.
}

// The demo's webhook handler before and after the session's fix, and the
// test the session wrote (written when the demo is materialized; the
// embedded tree keeps a stub, since it is compiled with the repository).
const (
	webhookBefore = `package payments

// VerifySignature checks a webhook signature.
func VerifySignature() {}

// HandleEvent creates the order an event pays for.
func HandleEvent(eventID string) error {
	return createOrder(eventID)
}
`
	webhookAfter = `package payments

// VerifySignature checks a webhook signature.
func VerifySignature() {}

// HandleEvent creates the order an event pays for, once per event: the
// provider retries a delivery for up to three days.
func HandleEvent(eventID string) error {
	if seen(eventID) {
		return nil
	}
	remember(eventID)
	return createOrder(eventID)
}
`
	webhookTest = `package payments

import "testing"

func TestWebhookRetryCreatesOneOrder(t *testing.T) {
	HandleEvent("evt_1")
	HandleEvent("evt_1")
	if orders() != 1 {
		t.Fatal("a retried delivery created a second order")
	}
}
`
)
