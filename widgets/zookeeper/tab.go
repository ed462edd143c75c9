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

// zookeeperModeTab is the ZooKeeper tab: its state picture, the preset it
// opens with, its sliders and toggles (the shared ones in designtab with its
// rules for them, its own below).
var zookeeperModeTab = designtab.ModeTab{
	Mode:       "zookeeper",
	Title:      "ZooKeeper",
	StateTitle: "state.zookeeper",
	Preset:     "zk-happy-path",
	NewState:   func() designtab.StateView { return NewZNodeTree() },
	Sliders:    []string{"ttl", "nodes", "work", "pause", "latency", "clients", "clockDrift"},
	Toggles:    []string{"herd", "zkRespectSuspended", "fencing"},
	SliderRules: map[string]func(*designtab.SliderSpec){
		// The scenario's ttl is the session timeout the client asks for,
		// shown with what the server grants.
		"ttl": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Step, s.Format = "zkSession", "Session", 1, 0.1, zkSessionFormat
		},
		"nodes":   func(s *designtab.SliderSpec) { s.Words, s.Label = "zkNodes", "Servers" },
		"latency": func(s *designtab.SliderSpec) { s.Words = "zkLatency" },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		"herd":    func(t *designtab.ToggleSpec) { t.Words = "zkHerd" },
		"fencing": func(t *designtab.ToggleSpec) { t.Words = "zkFencing" },
	},
	Formerly: map[string]string{"zkSession": "ttl", "zkNodes": "nodes", "zkLatency": "latency",
		"zkHerd": "herd", "zkFencing": "fencing"},
}

// zookeeperToggles are the controls only the ZooKeeper tab shows.
var zookeeperToggles = map[string]designtab.ToggleSpec{
	"zkRespectSuspended": {
		Key: "zkRespectSuspended", Label: "Stop on SUSPENDED",
		Value: func(sc *sim.Scenario) bool { return sc.RespectSuspended },
		Apply: func(sc *sim.Scenario, on bool) { sc.RespectSuspended = on },
	},
}

func init() { designtab.Register(zookeeperModeTab, nil, zookeeperToggles) }
