package redlock

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// redlockProtocol is Redlock as the scenario runs it — go-redsync's Mutex
// over N independent masters — in two or three short lines: the vote
// tally above it already shows the quorum and the validity arithmetic.
func redlockProtocol(sc *sim.Scenario) []string {
	ttl, n := sc.TTL.D(), sc.Nodes
	timeout := widgets.ShortTime(redlocksim.Timeout(ttl))
	if wait := redlocksim.Wait(ttl, sc.ContextTimeout); wait != redlocksim.Timeout(ttl) {
		timeout += i18n.F("redlock.proto.silent", "wait", widgets.ShortTime(wait))
	}
	how := i18n.F("redlock.proto.parallel", "n", n, "timeout", timeout)
	if sc.Sequential {
		how = i18n.F("redlock.proto.sequential", "n", n, "timeout", timeout)
	}
	d := sc.RetryDelay.D()
	lo, hi := widgets.ShortTime(d/3), widgets.ShortTime(d*5/3)
	if d*5/3 < time.Second {
		lo = strings.TrimSuffix(lo, " ms")
	}
	tries := i18n.T("redlock.proto.untilEnd")
	if sc.Tries > 0 {
		tries = i18n.F("redlock.proto.tries", "n", sc.Tries)
	}
	out := []string{i18n.F("redlock.proto.acquire", "px", ttl.Milliseconds(), "how", how, "lo", lo, "hi", hi, "tries", tries)}
	if sc.Watchdog {
		out = append(out, i18n.F("redlock.proto.extend", "every", widgets.ShortTime(ttl/3), "n", n))
	}
	return append(out, i18n.T("redlock.proto.noToken"))
}

// redlockModeTab is the Redlock tab: its state picture, the preset it opens
// with, its sliders and toggles (the shared ones in designtab with its rules
// for them, its own below) and its protocol lines.
var redlockModeTab = designtab.ModeTab{
	Mode:       "redlock",
	Title:      "Redlock",
	StateTitle: "state.redlock",
	Preset:     "redlock-clock-jump",
	NewState:   func() designtab.StateView { return NewVoteTally() },
	Sliders: []string{"ttl", "work", "pause", "latency", "clients",
		"nodes", "redlockDriftFactor", "clockDrift"},
	Toggles: []string{"watchdog", "fencing", "redlockSequential", "redlockContextTimeout"},
	SliderRules: map[string]func(*designtab.SliderSpec){
		"ttl": func(s *designtab.SliderSpec) { s.Words = "redlockTTL" },
		// A try waits ttl × 0.05 for the votes: a slow link is worth
		// seeing up to a second.
		"latency": func(s *designtab.SliderSpec) { s.Words, s.Max = "redlockLatency", 1000 },
		"nodes": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Max = "redlockNodes", "Masters", redlocksim.MaxNodes
		},
		"clockDrift": func(s *designtab.SliderSpec) { s.Words = "redlockClockDrift" },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		"watchdog": func(t *designtab.ToggleSpec) { t.Words = "redlockWatchdog" },
		"fencing":  func(t *designtab.ToggleSpec) { t.Words = "redlockFencing" },
	},
	Formerly: map[string]string{"redlockTTL": "ttl", "redlockLatency": "latency", "redlockNodes": "nodes",
		"redlockClockDrift": "clockDrift", "redlockWatchdog": "watchdog", "redlockFencing": "fencing"},
	Protocol: redlockProtocol,
}

// redlockSliders and redlockToggles are the controls only the Redlock tab shows.
var redlockSliders = map[string]designtab.SliderSpec{
	"redlockDriftFactor": {
		Key: "redlockDriftFactor", Label: "Drift factor", Min: 0, Max: 0.1, Step: 0.001,
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.DriftFactor, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.DriftFactor = math.Round(v*1000) / 1000 },
		Format: func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) },
	},
}

var redlockToggles = map[string]designtab.ToggleSpec{
	"redlockSequential": {
		Key: "redlockSequential", Label: "Sequential",
		Value: func(sc *sim.Scenario) bool { return sc.Sequential },
		Apply: func(sc *sim.Scenario, on bool) { sc.Sequential = on },
	},
	"redlockContextTimeout": {
		Key: "redlockContextTimeout", Label: "Context timeout",
		Value: func(sc *sim.Scenario) bool { return sc.ContextTimeout },
		Apply: func(sc *sim.Scenario, on bool) { sc.ContextTimeout = on },
	},
}

func init() { designtab.Register(redlockModeTab, redlockSliders, redlockToggles) }
