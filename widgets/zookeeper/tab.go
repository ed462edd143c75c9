package zookeeper

import (
	"math"
	"strconv"

	"github.com/lockscope/lockscope/sim"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// zkSessionFormat shows a requested session timeout, and what the server
// grants when it clamps it to [2, 20] × tickTime: "60→40 s".
func zkSessionFormat(v float64) string {
	asked := designtab.FromSeconds(v).D()
	got := zookeepersim.ZKSessionTimeout(asked)
	if got == asked {
		return designtab.FormatSeconds(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "→" + designtab.FormatSeconds(got.Seconds())
}

// zookeeperModeTab is the ZooKeeper tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab, its own below)
// and its protocol lines.
var zookeeperModeTab = designtab.ModeTab{
	Mode:       "zookeeper",
	Title:      "ZooKeeper",
	StateTitle: "state.zookeeper",
	Preset:     "zk-happy-path",
	NewState:   func() designtab.StateView { return NewZNodeTree() },
	Sliders:    []string{"zkSession", "zkNodes", "work", "pause", "zkLatency", "clients", "clockDrift"},
	Toggles:    []string{"zkHerd", "zkRespectSuspended", "zkFencing"},
}

// zookeeperSliders and zookeeperToggles are the controls only the ZooKeeper tab shows.
var zookeeperSliders = map[string]designtab.SliderSpec{
	"zkSession": {
		Key: "zkSession", Label: "Session", Min: 1, Max: 60, Step: 0.1, Log: true,
		Tip:    "slider.zkSession.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return designtab.Seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = designtab.FromSeconds(v) },
		Format: zkSessionFormat,
	},
	"zkNodes": {
		Key: "zkNodes", Label: "Servers", Min: 1, Max: 7, Step: 1,
		Tip:    "slider.zkNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: designtab.FormatCount,
	},
	"zkLatency": {
		Key: "zkLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip:    "slider.zkLatency.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = designtab.FromMs(v) },
		Format: designtab.FormatMs,
	},
}

var zookeeperToggles = map[string]designtab.ToggleSpec{
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
}

func init() { designtab.Register(zookeeperModeTab, zookeeperSliders, zookeeperToggles) }
