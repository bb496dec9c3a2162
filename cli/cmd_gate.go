package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/model"
)

var gateCommand = &command{
	name:  "gate",
	usage: "memscope gate log [--held] [--limit N] [--json]",
	summary: "what the memory-write gate decided: each judged call with its time, session, tool, file, rules fired and decision\n\n" +
		"Reads gate.jsonl in memscope's state folder (memscope hook pre-tool-use writes it), newest last;\n" +
		"--held shows only the calls it denied or asked about.",
	run: steps(parseGate, runGate, showGate),
}

type gateOptions struct {
	held  bool
	limit int
	json  bool
}

// gateReport is `memscope gate log --json`.
type gateReport struct {
	Log string `json:"log"`
	// HeldToday is the Overview's line ("" when nothing was held today).
	HeldToday string        `json:"heldToday"`
	Records   []gate.Record `json:"records"`
	// Skipped counts malformed lines of the log.
	Skipped int `json:"skipped,omitempty"`
}

func parseGate(e *env, args []string) (gateOptions, error) {
	var opts gateOptions
	sub := ""
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		sub, args = args[0], args[1:]
	}
	fs := newBareFlags("gate")
	fs.BoolVar(&opts.held, "held", false, "only the calls the gate denied or asked about")
	fs.IntVar(&opts.limit, "limit", 50, "show the last `N` records (0: all)")
	fs.BoolVar(&opts.json, "json", false, "print JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	if sub != "log" || fs.NArg() > 0 {
		return opts, badUsagef("gate: the subcommand is log: memscope gate log [--json]")
	}
	if opts.limit < 0 {
		return opts, badUsagef("gate log: --limit must be 0 or more")
	}
	return opts, nil
}

func runGate(e *env, opts gateOptions) (gateReport, error) {
	p, err := gateLogPath(e, gate.LogName)
	if err != nil {
		return gateReport{}, err
	}
	recs, bad, err := gate.ReadLog(p)
	if err != nil {
		return gateReport{}, badInput(err)
	}
	rep := gateReport{Log: p, HeldToday: gate.HeldLine(recs, e.now()), Skipped: bad, Records: []gate.Record{}}
	for _, r := range recs {
		if !opts.held || r.Held() {
			rep.Records = append(rep.Records, r)
		}
	}
	if opts.limit > 0 && len(rep.Records) > opts.limit {
		rep.Records = rep.Records[len(rep.Records)-opts.limit:]
	}
	return rep, nil
}

func showGate(e *env, opts gateOptions, rep gateReport) error {
	return e.output(opts.json, rep, func(w io.Writer) {
		fmt.Fprintf(w, "gate log %s\n", rep.Log)
		if len(rep.Records) == 0 {
			fmt.Fprintln(w, "no decisions recorded (memscope hooks install puts the gate in the client)")
		}
		for _, r := range rep.Records {
			var rules []string
			for _, f := range r.Rules {
				s := string(f.Rule) + "=" + string(f.Decision)
				if f.Line > 0 {
					s += fmt.Sprintf("@%d", f.Line)
				}
				rules = append(rules, s)
			}
			line := fmt.Sprintf("%s  %-5s %-9s %s  %.1f ms", r.Time.Local().Format("2006-01-02 15:04:05"), r.Decision, r.Tool, r.Path, float64(r.Micros)/1000)
			if len(rules) > 0 {
				line += "  " + strings.Join(rules, " ")
			}
			if r.Error != "" {
				line += "  error: " + r.Error
			}
			fmt.Fprintln(w, model.SanitizeLine(line))
		}
		if rep.HeldToday != "" {
			fmt.Fprintln(w, rep.HeldToday)
		}
		if rep.Skipped > 0 {
			fmt.Fprintf(w, "(%d malformed lines skipped)\n", rep.Skipped)
		}
	})
}
