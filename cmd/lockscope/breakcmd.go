package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/app"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/breaker"
	"github.com/lockscope/lockscope/widgets"
)

const breakUsage = `usage: lockscope break PRESET|FILE [--faults pause,partition,clockJump,crash,failover] [--max-faults N]
                      [--max-pause D] [--max-jump D] [--max-partition D] [--runs N] [--seed N]
                      [--spare-storage] [--monotonic] [--out FILE] [--json] [--lang en|zh]

Searches fault schedules for the smallest one that makes the storage accept a
stale write with the scenario's settings (its own faults are set aside),
shrinks it, and prints it with the run's verdict.

  --faults K,K,...    kinds of fault to try (default: every kind the scenario has:
                      failover only where its design can fail a server over)
  --max-faults N      most faults in one schedule (default 2; 3 where the client
                      itself counts a majority of independent servers)
  --max-pause D       longest pause, and longest a crashed server stays down (default 2 × ttl)
  --max-jump D        largest clock jump, forward or back (default ttl)
  --max-partition D   longest partition (default 2 × ttl)
  --spare-storage     no fault on the storage node (by default it is paused, cut off
                      and crashed like any server)
  --monotonic         clock jumps step the monotonic clock too, and strike clients
                      as well as servers (by default a jump moves a server's wall
                      clock only, as setting the time does)
  --runs N            most schedules to try (default 10000)
  --seed N            the search's seed (default 1): the same seed finds the same
                      schedule on any number of cores
  --out FILE          write the scenario with the found faults and captions that
                      tell the story (runnable with lockscope run)
  --json              print {"found", "runs", "faults", "summary"}; summary is
                      run --json's for the found schedule (for the scenario without
                      faults when nothing was found)
  --lang en|zh        the language of the readable report (default en)
`

// breakOptions is the parsed command line of `lockscope break`.
type breakOptions struct {
	source string
	budget breaker.Budget
	seed   int64
	out    string
	json   bool
	help   bool
	lang   i18n.Lang
}

// parseBreakArgs reads the arguments of `break` with the flag reader of
// run, sweep and shot.
func parseBreakArgs(args []string) (breakOptions, error) {
	o := breakOptions{seed: 1, lang: i18n.English}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if isPositional(a) {
			if o.source != "" {
				return o, fmt.Errorf("break: one scenario at a time, got %q and %q", o.source, a)
			}
			o.source = a
			continue
		}
		name, inline, value := flagAt(args, &i)
		switch name {
		case "json":
			if inline {
				return o, fmt.Errorf("--json: takes no value")
			}
			o.json = true
			continue
		case "h", "help":
			o.help = true
			continue
		case "spare-storage":
			if inline {
				return o, fmt.Errorf("--spare-storage: takes no value")
			}
			o.budget.SpareStorage = true
			continue
		case "monotonic":
			if inline {
				return o, fmt.Errorf("--monotonic: takes no value")
			}
			o.budget.Monotonic = true
			continue
		case "faults", "max-faults", "max-pause", "max-jump", "max-partition", "runs", "seed", "out", "lang":
		default:
			return o, fmt.Errorf("break: unknown flag %q (flags: --faults, --max-faults, --max-pause, --max-jump, --max-partition, --spare-storage, --monotonic, --runs, --seed, --out, --json, --lang)", a)
		}
		v, err := value()
		if err != nil {
			return o, err
		}
		switch name {
		case "faults":
			if o.budget.Kinds, err = breaker.ParseKinds(v); err != nil {
				return o, fmt.Errorf("--faults: %w", err)
			}
		case "max-faults":
			if o.budget.MaxFaults, err = count(name, v, 1, 10); err != nil {
				return o, err
			}
		case "runs":
			if o.budget.Runs, err = count(name, v, 1, 10_000_000); err != nil {
				return o, err
			}
		case "max-pause", "max-jump", "max-partition":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Millisecond || d > sim.MaxDuration {
				return o, fmt.Errorf("--%s: want a duration from 1ms to %v such as 20s, got %q", name, sim.MaxDuration, v)
			}
			switch name {
			case "max-pause":
				o.budget.MaxPause = d
			case "max-jump":
				o.budget.MaxJump = d
			default:
				o.budget.MaxPartition = d
			}
		case "seed":
			if o.seed, err = strconv.ParseInt(v, 10, 64); err != nil {
				return o, fmt.Errorf("--seed: want an integer, got %q", v)
			}
		case "out":
			if v == "" {
				return o, fmt.Errorf("--out: needs a file name")
			}
			o.out = v
		case "lang":
			l, ok := i18n.Parse(v)
			if !ok {
				return o, fmt.Errorf("--lang: want en or zh, got %q", v)
			}
			o.lang = l
		}
	}
	if o.source == "" && !o.help {
		return o, errors.New("break: name a preset or a .lockscope.json file (lockscope presets lists the presets)")
	}
	return o, nil
}

// count reads a whole number of flag name between lo and hi.
func count(name, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("--%s: want a whole number from %d to %d, got %q", name, lo, hi, v)
	}
	return n, nil
}

// breakJSON is what `break --json` prints.
type breakJSON struct {
	Found   bool        `json:"found"`
	Runs    int         `json:"runs"`
	Faults  []sim.Fault `json:"faults"`
	Summary sim.Summary `json:"summary"`
}

// breakScenario is `lockscope break`.
func breakScenario(args []string, stdout, stderr io.Writer) int {
	o, err := parseBreakArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	if o.help {
		fmt.Fprint(stdout, breakUsage)
		return exitOK
	}
	sc, err := loadScenario(o.source, nil)
	if err != nil {
		return fail(stderr, fmt.Errorf("break: %w", err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := breaker.Search(ctx, sc, breaker.Options{Budget: o.budget, Seed: o.seed})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "lockscope: break: %s\n", oneLine(err))
			return exitFailure
		}
		return fail(stderr, fmt.Errorf("break: %w", err))
	}
	if o.out != "" {
		if code := writeBroken(o, sc, res, stderr); code != exitOK {
			return code
		}
	}
	if o.json {
		faults := res.Faults
		if faults == nil {
			faults = []sim.Fault{}
		}
		b, err := json.MarshalIndent(breakJSON{Found: res.Found, Runs: res.Runs, Faults: faults, Summary: res.Summary}, "", "  ")
		if err != nil {
			return writeFailed(stderr, err)
		}
		if _, err := stdout.Write(append(b, '\n')); err != nil {
			return writeFailed(stderr, err)
		}
		return exitOK
	}
	if err := writeBreakReport(stdout, o, sc, res); err != nil {
		return writeFailed(stderr, err)
	}
	return exitOK
}

// writeBroken writes the found scenario, named after the original, to
// --out; when nothing was found it writes nothing and says so on stderr.
func writeBroken(o breakOptions, sc *sim.Scenario, res *breaker.Result, stderr io.Writer) int {
	if !res.Found {
		fmt.Fprintln(stderr, i18n.Fin(o.lang, "break.cli.notWritten", "file", o.out))
		return exitOK
	}
	out := res.Captioned(widgets.SayBoth)
	name := sc.Name
	if name == "" {
		name = o.source
	}
	out.Name = i18n.Fin(i18n.English, "break.name", "name", name)
	out.NameZh = i18n.Fin(i18n.Chinese, "break.name", "name", app.ScenarioNameIn(i18n.Chinese, sc, o.source))
	doc, err := out.Marshal()
	if err != nil {
		return writeFailed(stderr, err)
	}
	if err := os.WriteFile(o.out, doc, 0o644); err != nil {
		return fail(stderr, fmt.Errorf("--out: %w", err))
	}
	if !o.json {
		fmt.Fprintln(stderr, i18n.Fin(o.lang, "break.cli.wrote", "file", o.out))
	}
	return exitOK
}

// writeBreakReport prints the result for a person: found or not, the
// sentence with its margin, the faults as a scenario file spells them,
// then the found run's report.
func writeBreakReport(w io.Writer, o breakOptions, sc *sim.Scenario, res *breaker.Result) error {
	l := o.lang
	if !res.Found {
		fmt.Fprintln(w, i18n.Fin(l, "break.cli.notFound", "seed", o.seed))
		_, err := fmt.Fprintln(w, widgets.SayIn(l, res.Sentence, ""))
		return err
	}
	found := sim.Say("break.cli.found", "seed", strconv.FormatInt(o.seed, 10)).
		With("schedules", breaker.Count(breaker.NounSchedules, res.Runs)).
		With("shrinkRuns", breaker.Count(breaker.NounRuns, res.ShrinkRuns))
	fmt.Fprintln(w, widgets.SayIn(l, found, ""))
	fmt.Fprintln(w, widgets.SayIn(l, res.Sentence, ""))
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.In(l, "break.cli.faults"))
	for _, f := range res.Faults {
		b, err := json.Marshal(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s\n", b)
	}
	fmt.Fprintln(w)
	return writeReport(w, l, o.source, res.Scenario, res.Summary)
}
