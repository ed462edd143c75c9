package etcd

import (
	"math"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// etcdLeaseFormat shows the lease slider's value, and the TTL etcd grants
// instead when the value is below its minimum.
func etcdLeaseFormat(v float64) string {
	asked := designtab.FromSeconds(v).D()
	if got := etcdsim.EtcdGrantedTTL(asked); got != asked {
		return designtab.FormatSeconds(v) + " → " + widgets.ShortTime(got)
	}
	return designtab.FormatSeconds(v)
}

// etcdProtocol is the etcd lock as the scenario runs it — clientv3's
// concurrency.Session and Mutex against an etcd cluster — with its figures,
// one short line per step.
func etcdProtocol(sc *sim.Scenario) []string {
	asked, ttl := etcdsim.EtcdAskedTTL(sc.TTL.D()), etcdsim.EtcdGrantedTTL(sc.TTL.D())
	session := i18n.F("etcd.proto.session", "ttl", widgets.ShortTime(ttl))
	if ttl != asked {
		session = i18n.F("etcd.proto.sessionRaised", "asked", widgets.ShortTime(asked), "ttl", widgets.ShortTime(ttl))
	}
	session += i18n.F("etcd.proto.keepalive", "every", widgets.ShortTime(ttl/3))
	out := []string{session, i18n.F("etcd.proto.lock", "prefix", etcdsim.EtcdPrefix)}
	if sc.Herd {
		out = append(out, i18n.T("etcd.proto.waitHerd"))
	} else {
		out = append(out, i18n.T("etcd.proto.wait"))
	}
	if sc.Fencing {
		out = append(out, i18n.T("etcd.proto.writeFenced"))
	} else {
		out = append(out, i18n.T("etcd.proto.write"))
	}
	return append(out, i18n.F("etcd.proto.unlock", "ttl", widgets.ShortTime(ttl), "n", sc.Nodes, "quorum", sc.Nodes/2+1))
}

// etcdModeTab is the etcd tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab, its own below)
// and its protocol lines.
var etcdModeTab = designtab.ModeTab{
	Mode:       "etcd",
	Title:      "etcd",
	StateTitle: "state.etcd",
	Preset:     "etcd-lease-expiry",
	NewState:   func() designtab.StateView { return NewKeys() },
	Sliders:    []string{"etcdLease", "etcdNodes", "work", "pause", "etcdLatency", "clients", "clockDrift"},
	Toggles:    []string{"etcdHerd", "etcdFencing", "etcdPreVote"},
	Protocol:   etcdProtocol,
}

// etcdSliders and etcdToggles are the controls only the etcd tab shows.
var etcdSliders = map[string]designtab.SliderSpec{
	"etcdLease": {
		Key: "etcdLease", Label: "Lease TTL", Min: 1, Max: 60, Step: 1, Log: true,
		Tip:    "slider.etcdLease.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return designtab.Seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = designtab.FromSeconds(v) },
		Format: etcdLeaseFormat,
	},
	"etcdNodes": {
		Key: "etcdNodes", Label: "Members", Min: 1, Max: 7, Step: 1,
		Tip:    "slider.etcdNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: designtab.FormatCount,
	},
	"etcdLatency": {
		Key: "etcdLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip:    "slider.etcdLatency.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = designtab.FromMs(v) },
		Format: designtab.FormatMs,
	},
}

var etcdToggles = map[string]designtab.ToggleSpec{
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
	"etcdPreVote": {
		Key: "etcdPreVote", Label: "Pre-vote",
		Tip:   "toggle.etcdPreVote.tip",
		Value: func(sc *sim.Scenario) bool { return sc.PreVote },
		Apply: func(sc *sim.Scenario, on bool) { sc.PreVote = on },
	},
}

func init() { designtab.Register(etcdModeTab, etcdSliders, etcdToggles) }
