package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

const runUsage = `usage: lockscope run PRESET|FILE [--seed N] [--set field=value]... [--json] [--trace FILE] [--lang en|zh]

  PRESET|FILE        a preset name (lockscope presets) or a .lockscope.json file
  --seed N           the RNG seed (same as --set seed=N)
  --set field=value  override any scenario field before validation; the value is
                     JSON when it parses, else a string: --set ttl=5s --set fencing=true
                     --set clients=4 --set 'faults[0].for=20s'
  --json             print the summary as one JSON object
  --trace FILE       write every event, as JSON lines (or CSV when FILE ends in .csv)
  --lang en|zh       the language of the readable report (default en; --json is the same in both)
`

// runOptions is the parsed command line of `lockscope run`.
type runOptions struct {
	source    string
	overrides []override
	json      bool
	trace     string
	help      bool
	lang      i18n.Lang
}

// parseRunArgs reads the arguments of `run`. Flags may come before or after
// the scenario, with one or two dashes, as `--flag value` or `--flag=value`.
func parseRunArgs(args []string) (runOptions, error) {
	o := runOptions{lang: i18n.English}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if isPositional(a) {
			if o.source != "" {
				return o, fmt.Errorf("run: one scenario at a time, got %q and %q", o.source, a)
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
		case "seed", "set", "trace", "lang":
		default:
			return o, fmt.Errorf("run: unknown flag %q (flags: --seed, --set, --json, --trace, --lang)", a)
		}
		v, err := value()
		if err != nil {
			return o, err
		}
		if ov, ok, err := scenarioOverride(name, v); ok {
			if err != nil {
				return o, err
			}
			o.overrides = append(o.overrides, ov)
			continue
		}
		switch name {
		case "trace":
			if v == "" {
				return o, fmt.Errorf("--trace: needs a file name")
			}
			o.trace = v
		case "lang":
			l, ok := i18n.Parse(v)
			if !ok {
				return o, fmt.Errorf("--lang: want en or zh, got %q", v)
			}
			o.lang = l
		}
	}
	if o.source == "" && !o.help {
		return o, errors.New("run: name a preset or a .lockscope.json file (lockscope presets lists the presets)")
	}
	return o, nil
}

// loadScenario reads the preset or file, applies the overrides and returns
// the validated scenario. An error in the file itself names the file; an
// error an override caused names the field only, as the user typed it.
func loadScenario(source string, overrides []override) (*sim.Scenario, error) {
	data, ok := assets.PresetFile(source)
	label := "preset " + source
	if !ok {
		var err error
		data, err = os.ReadFile(source)
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(source, `/\.`) {
			return nil, fmt.Errorf("no preset or file named %q (lockscope presets lists the presets)", source)
		}
		if err != nil {
			return nil, err
		}
		label = source
	}
	sc, err := sim.ParseScenario(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if len(overrides) == 0 {
		return sc, nil
	}
	doc, err := applyOverrides(data, overrides)
	if err != nil {
		return nil, err
	}
	return sim.ParseScenario(doc)
}

// runScenario is `lockscope run`.
func runScenario(args []string, stdout, stderr io.Writer) int {
	o, err := parseRunArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	if o.help {
		fmt.Fprint(stdout, runUsage)
		return exitOK
	}
	sc, err := loadScenario(o.source, o.overrides)
	if err != nil {
		return fail(stderr, err)
	}
	s, err := sim.New(sc)
	if err != nil {
		return fail(stderr, err)
	}
	var trace *os.File
	var tw *sim.TraceWriter
	var buf *bufio.Writer
	if o.trace != "" {
		if trace, err = os.Create(o.trace); err != nil {
			return fail(stderr, fmt.Errorf("--trace: %w", err))
		}
		defer trace.Close()
		// The trace goes to the file as the run makes it: a long run's
		// trace never sits in memory.
		buf = bufio.NewWriterSize(trace, 1<<20)
		tw = sim.NewTraceWriter(buf, strings.HasSuffix(strings.ToLower(o.trace), ".csv"))
		s.TraceTo(tw.Sink)
	}
	if o.json {
		s.KeepFlights() // for the pacing "playback" reports
	}
	sum := runWithProgress(s, stderr)
	if o.json || sum.Election { // an election's report says its split brain and vacancy
		m := s.Check.Metrics(s.End())
		sum.Metrics = &m
	}
	if o.json {
		pb := s.Pace(sim.StoryPace).Summary()
		pb.Seconds, pb.MinKeyMessageSeconds = sim.Round3(pb.Seconds), sim.Round3(pb.MinKeyMessageSeconds)
		sum.Playback = &pb
	}
	if trace != nil {
		if err := errors.Join(tw.Flush(), buf.Flush(), trace.Close()); err != nil {
			return writeFailed(stderr, fmt.Errorf("--trace: %w", err))
		}
	}
	if o.json {
		b, err := json.MarshalIndent(sum, "", "  ")
		if err != nil {
			return writeFailed(stderr, err)
		}
		if _, err := stdout.Write(append(b, '\n')); err != nil {
			return writeFailed(stderr, err)
		}
		return exitOK
	}
	if err := writeReport(stdout, o.lang, o.source, sc, sum); err != nil {
		return writeFailed(stderr, err)
	}
	return exitOK
}
