package etcd

import (
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
	if got := etcdsim.GrantedTTL(asked); got != asked {
		return designtab.FormatSeconds(v) + " → " + widgets.ShortTime(got)
	}
	return designtab.FormatSeconds(v)
}

// etcdProtocol is the etcd lock as the scenario runs it — clientv3's
// concurrency.Session and Mutex against an etcd cluster — with its figures,
// one short line per step.
func etcdProtocol(sc *sim.Scenario) []string {
	asked, ttl := etcdsim.AskedTTL(sc.TTL.D()), etcdsim.GrantedTTL(sc.TTL.D())
	session := i18n.F("etcd.proto.session", "ttl", widgets.ShortTime(ttl))
	if ttl != asked {
		session = i18n.F("etcd.proto.sessionRaised", "asked", widgets.ShortTime(asked), "ttl", widgets.ShortTime(ttl))
	}
	session += i18n.F("etcd.proto.keepalive", "every", widgets.ShortTime(ttl/3))
	out := []string{session, i18n.F("etcd.proto.lock", "prefix", etcdsim.Prefix)}
	if etcdsim.Readers.IsOn(sc) { // RWMutex (sim/etcd/rwlock.go)
		out = []string{session, i18n.F("etcd.proto.rwLock", "prefix", etcdsim.Prefix, "n", etcdsim.Readers.Of(sc)),
			i18n.T("etcd.proto.rwWait")}
	} else if etcdsim.Herd.Of(sc) {
		out = append(out, i18n.T("etcd.proto.waitHerd"))
	} else {
		out = append(out, i18n.T("etcd.proto.wait"))
	}
	if sc.Fencing {
		out = append(out, i18n.T("etcd.proto.writeFenced"))
	} else {
		out = append(out, i18n.T("etcd.proto.write"))
	}
	n := etcdsim.Nodes.Of(sc)
	return append(out, i18n.F("etcd.proto.unlock", "ttl", widgets.ShortTime(ttl), "n", n, "quorum", n/2+1))
}

// Tab is the etcd tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab with its rules for
// them, its own below) and its protocol lines.
// It is the design's window side, a value: the list of designs (package
// designs) installs it with designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "etcd",
	Title:      "etcd",
	StateTitle: "state.etcd",
	Preset:     "etcd-lease-expiry",
	NewState:   func() designtab.StateView { return NewKeys() },
	Sliders:    []string{"ttl", etcdsim.Nodes.Key, "work", "pause", "latency", "clients", "clockDrift", etcdsim.Readers.Key},
	Toggles:    []string{etcdsim.Herd.Key, "fencing", etcdsim.PreVote.Key, etcdsim.Use.Key},
	SliderRules: map[string]func(*designtab.SliderSpec){
		// The lease is whole seconds, as the simulator asks for it
		// (concurrency.WithTTL), and shows what the lessor grants.
		"ttl": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Step, s.Format = "etcdLease", "Lease TTL", 1, 1, etcdLeaseFormat
			s.Round = func(v float64) float64 { return etcdsim.AskedTTL(designtab.FromSeconds(v).D()).Seconds() }
		},
		etcdsim.Nodes.Key: func(s *designtab.SliderSpec) { s.Words, s.Label, s.Min, s.Max = "etcdNodes", "Members", 1, 7 },
		// The read–write lock's readers: on show beside a read–write
		// scenario (zk-read-write, etcd-read-write, a file setting it);
		// the toolbar has no room for it always at 1024 points.
		etcdsim.Readers.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Max = "Readers", 12
			s.Shown = func(sc *sim.Scenario) bool { return etcdsim.Readers.IsOn(sc) }
		},
		"latency": func(s *designtab.SliderSpec) { s.Words = "etcdLatency" },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		etcdsim.Herd.Key:    func(t *designtab.ToggleSpec) { t.Words, t.Label = "etcdHerd", "Herd" },
		"fencing":           func(t *designtab.ToggleSpec) { t.Words = "etcdFencing" },
		etcdsim.PreVote.Key: func(t *designtab.ToggleSpec) { t.Words, t.Label = "etcdPreVote", "Pre-vote" },
		etcdsim.Use.Key:     func(t *designtab.ToggleSpec) { t.Words, t.Label = "etcdUse", "Use" },
	},
	Formerly: map[string]string{"etcdLease": "ttl", "etcdNodes": "nodes", "etcdLatency": "latency",
		"etcdHerd": "herd", "etcdFencing": "fencing", "etcdPreVote": "preVote"},
	Protocol: etcdProtocol,
}
