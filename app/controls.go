package app

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// SliderSpec is one scenario parameter a slider edits: how to read it from
// a scenario, how to write it back, its range and how to show its value.
// Tabs list the keys of the sliders that apply to their mode.
type SliderSpec struct {
	Key   string
	Label string // the name beside the slider (Name gives it in the current language)
	// Tip is the translation key of the hover help: what the parameter is
	// in the real system and its real default. The words are in
	// assets/translations/en.json and zh.json under "slider.<Key>.tip".
	Tip  string
	Min  float64
	Max  float64
	Step float64
	// Value reads the parameter; ok is false when the scenario has nothing
	// for the slider to edit (the slider is then disabled).
	Value func(sc *sim.Scenario) (v float64, ok bool)
	// Apply writes the parameter into a copy of the scenario.
	Apply func(sc *sim.Scenario, v float64)
	// Format shows a value beside the slider.
	Format func(v float64) string
}

// ToggleSpec is one on/off scenario parameter.
type ToggleSpec struct {
	Key   string
	Label string // the check box's text (Name gives it in the current language)
	// Tip is the translation key of the hover help, "toggle.<Key>.tip" in
	// assets/translations.
	Tip   string
	Value func(sc *sim.Scenario) bool
	Apply func(sc *sim.Scenario, on bool)
	// Disabled says why the toggle cannot be used with the scenario ("" when
	// it can); the window then shows it greyed, with the reason as its tip.
	// Nil for a toggle that always applies.
	Disabled func(sc *sim.Scenario) string
}

// Name is the slider's name in the current language: the words under
// "slider.<Key>", else its Label.
func (s SliderSpec) Name() string { return specWord("slider."+s.Key, s.Label) }

// Help is the slider's hover help in the current language.
func (s SliderSpec) Help() string { return i18n.T(s.Tip) }

// Name is the toggle's text in the current language: the words under
// "toggle.<Key>", else its Label.
func (t ToggleSpec) Name() string { return specWord("toggle."+t.Key, t.Label) }

// Help is the toggle's hover help in the current language.
func (t ToggleSpec) Help() string { return i18n.T(t.Tip) }

// specWord is the text of key, or fallback when no language has the key.
func specWord(key, fallback string) string {
	if i18n.Has(i18n.English, key) {
		return i18n.T(key)
	}
	return fallback
}

// DisabledWhy is the reason the toggle is off limits for sc, "" for none.
func (t ToggleSpec) DisabledWhy(sc *sim.Scenario) string {
	if t.Disabled == nil || sc == nil {
		return ""
	}
	return t.Disabled(sc)
}

func seconds(d sim.Duration) float64 { return d.D().Seconds() }

func fromSeconds(v float64) sim.Duration {
	return sim.Duration(time.Duration(math.Round(v*1000)) * time.Millisecond)
}

// fmtSeconds shows a slider's seconds with no more digits than its step.
func fmtSeconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " s" }

// pauseLength is the length of the first pause fault, if any.
func pauseLength(sc *sim.Scenario) (time.Duration, bool) {
	for _, f := range sc.Faults {
		if f.Kind() == "pause" {
			return f.For.D(), true
		}
	}
	return 0, false
}

// Sliders is every slider a tab can show, by key.
var Sliders = map[string]SliderSpec{
	"ttl": {
		Key: "ttl", Label: "TTL", Min: 0.5, Max: 60, Step: 0.5,
		Tip:    "slider.ttl.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"work": {
		Key: "work", Label: "Work", Min: 0, Max: 90, Step: 0.5,
		Tip:    "slider.work.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.Work), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Work = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"pause": {
		Key: "pause", Label: "Pause", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "slider.pause.tip",
		Value: func(sc *sim.Scenario) (float64, bool) {
			d, ok := pauseLength(sc)
			return d.Seconds(), ok
		},
		Apply: func(sc *sim.Scenario, v float64) {
			for i := range sc.Faults {
				if sc.Faults[i].Kind() == "pause" {
					sc.Faults[i].For = fromSeconds(v)
				}
			}
		},
		Format: fmtSeconds,
	},
	"latency": {
		Key: "latency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip:   "slider.latency.tip",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
	"redlockTTL": {
		Key: "redlockTTL", Label: "TTL", Min: 0.5, Max: 60, Step: 0.5,
		Tip:    "slider.redlockTTL.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"redlockLatency": {
		Key: "redlockLatency", Label: "Latency", Min: 0, Max: 1000, Step: 1,
		Tip:    "slider.redlockLatency.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = fromMs(v) },
		Format: redlockMs,
	},
	"redlockNodes": {
		Key: "redlockNodes", Label: "Masters", Min: 1, Max: sim.RedlockMaxNodes, Step: 1,
		Tip:    "slider.redlockNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"redlockDriftFactor": {
		Key: "redlockDriftFactor", Label: "Drift factor", Min: 0, Max: 0.1, Step: 0.001,
		Tip:    "slider.redlockDriftFactor.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.DriftFactor, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.DriftFactor = math.Round(v*1000) / 1000 },
		Format: func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) },
	},
	"redlockClockDrift": {
		Key: "redlockClockDrift", Label: "Clock drift", Min: 0, Max: 0.1, Step: 0.001,
		Tip:    "slider.redlockClockDrift.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.ClockDrift, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.ClockDrift = math.Round(v*1000) / 1000 },
		Format: clockDriftFormat,
	},
	"clockDrift": {
		Key: "clockDrift", Label: "Clock drift", Min: 0, Max: 0.1, Step: 0.001,
		Tip:    "slider.clockDrift.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.ClockDrift, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.ClockDrift = math.Round(v*1000) / 1000 },
		Format: clockDriftFormat,
	},
	"clients": {
		Key: "clients", Label: "Clients", Min: 1, Max: 12, Step: 1,
		Tip:   "slider.clients.tip",
		Value: func(sc *sim.Scenario) (float64, bool) { return float64(sc.Clients), true },
		Apply: func(sc *sim.Scenario, v float64) { sc.Clients = int(math.Round(v)) },
		Format: func(v float64) string {
			return fmt.Sprintf("%.0f", v)
		},
	},
	"zkSession": {
		Key: "zkSession", Label: "Session", Min: 1, Max: 60, Step: 0.5,
		Tip:    "slider.zkSession.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: zkSessionFormat,
	},
	"zkNodes": {
		Key: "zkNodes", Label: "Servers", Min: 1, Max: 7, Step: 1,
		Tip:    "slider.zkNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"zkLatency": {
		Key: "zkLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip:   "slider.zkLatency.tip",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
	"etcdLease": {
		Key: "etcdLease", Label: "Lease TTL", Min: 1, Max: 60, Step: 1,
		Tip:    "slider.etcdLease.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: etcdLeaseFormat,
	},
	"etcdNodes": {
		Key: "etcdNodes", Label: "Members", Min: 1, Max: 7, Step: 1,
		Tip:    "slider.etcdNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"etcdLatency": {
		Key: "etcdLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip:   "slider.etcdLatency.tip",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
}

// Toggles is every toggle a tab can show, by key.
var Toggles = map[string]ToggleSpec{
	"watchdog": {
		Key: "watchdog", Label: "Watchdog",
		Tip:   "toggle.watchdog.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"fencing": {
		Key: "fencing", Label: "Fencing",
		Tip:   "toggle.fencing.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
	"redlockWatchdog": {
		Key: "redlockWatchdog", Label: "Watchdog",
		Tip:   "toggle.redlockWatchdog.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"redlockFencing": {
		Key: "redlockFencing", Label: "Fencing",
		Tip:   "toggle.redlockFencing.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
		Disabled: func(sc *sim.Scenario) string {
			return refusal(sc, func(c *sim.Scenario) { c.Fencing = true })
		},
	},
	"redlockSequential": {
		Key: "redlockSequential", Label: "Sequential",
		Tip:   "toggle.redlockSequential.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Sequential },
		Apply: func(sc *sim.Scenario, on bool) { sc.Sequential = on },
	},
	"replica": {
		Key: "replica", Label: "Replica",
		Tip:   "toggle.replica.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Replica },
		Apply: func(sc *sim.Scenario, on bool) { sc.Replica = on },
	},
	"zkHerd": {
		Key: "zkHerd", Label: "Herd",
		Tip:   "toggle.zkHerd.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Herd },
		Apply: func(sc *sim.Scenario, on bool) { sc.Herd = on },
	},
	"zkRespectSuspended": {
		Key: "zkRespectSuspended", Label: "Stop on SUSPENDED",
		Tip:   "toggle.zkRespectSuspended.tip",
		Value: func(sc *sim.Scenario) bool { return sc.RespectSuspended },
		Apply: func(sc *sim.Scenario, on bool) { sc.RespectSuspended = on },
	},
	"zkFencing": {
		Key: "zkFencing", Label: "Fencing",
		Tip:   "toggle.zkFencing.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
	"etcdHerd": {
		Key: "etcdHerd", Label: "Herd",
		Tip:   "toggle.etcdHerd.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Herd },
		Apply: func(sc *sim.Scenario, on bool) { sc.Herd = on },
	},
	"etcdFencing": {
		Key: "etcdFencing", Label: "Fencing",
		Tip:   "toggle.etcdFencing.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
}
