package zookeeper

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// zkSessionFormat shows a requested session timeout, and what the server
// grants when it clamps it to [2, 20] × tickTime: "60→40 s".
func zkSessionFormat(v float64) string {
	asked := designtab.FromSeconds(v).D()
	got := zookeepersim.SessionTimeout(asked)
	if got == asked {
		return designtab.FormatSeconds(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "→" + designtab.FormatSeconds(got.Seconds())
}

// Tab is the ZooKeeper tab: its state picture, the preset it
// opens with, its sliders and toggles (the shared ones in designtab with its
// rules for them, its own below).
// It is the design's window side, a value: the list of designs (package
// designs) installs it with designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "zookeeper",
	Title:      "ZooKeeper",
	StateTitle: "state.zookeeper",
	Preset:     "zk-happy-path",
	NewState:   func() designtab.StateView { return NewZNodeTree() },
	Sliders:    []string{"ttl", zookeepersim.Nodes.Key, "work", "pause", "latency", "clients", "clockDrift", zookeepersim.Readers.Key},
	Toggles:    []string{zookeepersim.Herd.Key, zookeepersim.RespectSuspended.Key, "fencing", zookeepersim.Use.Key},
	SliderRules: map[string]func(*designtab.SliderSpec){
		// The scenario's ttl is the session timeout the client asks for,
		// shown with what the server grants.
		"ttl": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Step, s.Format = "zkSession", "Session", 1, 0.1, zkSessionFormat
		},
		zookeepersim.Nodes.Key: func(s *designtab.SliderSpec) { s.Words, s.Label, s.Min, s.Max = "zkNodes", "Servers", 1, 7 },
		// The read–write lock's readers: on show beside a read–write
		// scenario (zk-read-write, etcd-read-write, a file setting it);
		// the toolbar has no room for it always at 1024 points.
		zookeepersim.Readers.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Max = "Readers", 12
			s.Shown = func(sc *sim.Scenario) bool { return zookeepersim.Readers.IsOn(sc) }
		},
		"latency": func(s *designtab.SliderSpec) { s.Words = "zkLatency" },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		zookeepersim.Herd.Key: func(t *designtab.ToggleSpec) { t.Words, t.Label = "zkHerd", "Herd" },
		zookeepersim.RespectSuspended.Key: func(t *designtab.ToggleSpec) {
			t.Words, t.Label = "zkRespectSuspended", "Stop on SUSPENDED"
		},
		"fencing":            func(t *designtab.ToggleSpec) { t.Words = "zkFencing" },
		zookeepersim.Use.Key: func(t *designtab.ToggleSpec) { t.Words, t.Label = "zkUse", "Use" },
	},
	Formerly: map[string]string{"zkSession": "ttl", "zkNodes": "nodes", "zkLatency": "latency",
		"zkHerd": "herd", "zkFencing": "fencing", "zkRespectSuspended": "respectSuspended"},
}
