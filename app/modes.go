package app

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// StateView is a mode's own picture of the lock (the Redis key with its
// TTL bar, the Redlock vote tally, the znode tree, the etcd keys): a widget
// drawn from a snapshot.
type StateView interface {
	fyne.CanvasObject
	// SetSnapshot shows the lock state of the snapshot's instant.
	SetSnapshot(s *sim.Snapshot)
}

// ModeTab describes one mode's tab. Adding a mode's tab is one entry in
// ModeTabs: its state widget, the preset it opens with, and the keys of
// the Sliders and Toggles that apply to it.
type ModeTab struct {
	Mode       string // the sim mode it runs
	Title      string // the tab's title
	StateTitle string // translation key of the title over the state picture
	Preset     string // the preset shown at start
	NewState   func() StateView
	Sliders    []string // keys into Sliders
	Toggles    []string // keys into Toggles
	// Protocol spells out, for the scenario on show, what the clients and
	// servers actually send, under the state picture; nil for none.
	Protocol func(sc *sim.Scenario) []string
}

// ModeTabs lists the tabs in window order. A tab appears only when its
// mode is registered with the simulator.
var ModeTabs = []ModeTab{
	{
		Mode:       "redis",
		Title:      "Redis",
		StateTitle: "state.redis",
		Preset:     "redis-gc-pause",
		NewState:   func() StateView { return widgets.NewRedisKeys() },
		Sliders:    []string{"ttl", "work", "pause", "latency", "clients", "clockDrift"},
		Toggles:    []string{"watchdog", "fencing", "replica"},
		Protocol:   redisProtocol,
	},
	{
		Mode:       "redlock",
		Title:      "Redlock",
		StateTitle: "state.redlock",
		Preset:     "redlock-clock-jump",
		NewState:   func() StateView { return widgets.NewVoteTally() },
		Sliders: []string{"redlockTTL", "work", "pause", "redlockLatency", "clients",
			"redlockNodes", "redlockDriftFactor", "redlockClockDrift"},
		Toggles:  []string{"redlockWatchdog", "redlockFencing", "redlockSequential"},
		Protocol: redlockProtocol,
	},
	{
		Mode:       "zookeeper",
		Title:      "ZooKeeper",
		StateTitle: "state.zookeeper",
		Preset:     "zk-happy-path",
		NewState:   func() StateView { return widgets.NewZNodeTree() },
		Sliders:    []string{"zkSession", "zkNodes", "work", "pause", "zkLatency", "clients", "clockDrift"},
		Toggles:    []string{"zkHerd", "zkRespectSuspended", "zkFencing"},
	},
	{
		Mode:       "etcd",
		Title:      "etcd",
		StateTitle: "state.etcd",
		Preset:     "etcd-lease-expiry",
		NewState:   func() StateView { return widgets.NewEtcdKeys() },
		Sliders:    []string{"etcdLease", "etcdNodes", "work", "pause", "etcdLatency", "clients", "clockDrift"},
		Toggles:    []string{"etcdHerd", "etcdFencing"},
		Protocol:   etcdProtocol,
	},
}

// shortTime writes a round duration without trailing zeros ("10 s",
// "100 ms") and any other to the millisecond.
func shortTime(d time.Duration) string {
	switch {
	case d >= time.Second && d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + " s"
	case d < time.Second && d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return widgets.FormatTime(d)
}

// redisProtocol is the Redis lock as the scenario runs it, command by
// command, with its figures.
func redisProtocol(sc *sim.Scenario) []string {
	ms := func(d sim.Duration) string { return strconv.FormatInt(d.D().Milliseconds(), 10) }
	fencing := ""
	if sc.Fencing {
		fencing = i18n.T("redis.proto.incr")
	}
	out := []string{i18n.F("redis.proto.acquire", "px", ms(sc.TTL), "fencing", fencing, "retry", shortTime(sc.RetryDelay.D()))}
	if sc.Watchdog {
		out = append(out, i18n.F("redis.proto.watchdog", "every", shortTime(sc.TTL.D()/3), "px", ms(sc.TTL)))
	} else {
		out = append(out, i18n.F("redis.proto.noWatchdog", "ttl", shortTime(sc.TTL.D())))
	}
	if sc.PlainDel {
		out = append(out, i18n.T("redis.proto.plainDel"))
	} else {
		out = append(out, i18n.T("redis.proto.release"))
	}
	if sc.Fencing {
		out = append(out, i18n.T("redis.proto.storageFenced"))
	} else {
		out = append(out, i18n.T("redis.proto.storage"))
	}
	if sc.Replica {
		out = append(out, i18n.T("redis.proto.replica"))
	}
	return append(out, i18n.F("redis.proto.timeout", "t", shortTime(sim.RequestTimeout)))
}

// availableTabs are the ModeTabs whose mode the simulator knows.
func availableTabs() []ModeTab {
	var out []ModeTab
	for _, t := range ModeTabs {
		if _, err := sim.LookupMode(t.Mode); err == nil {
			out = append(out, t)
		}
	}
	return out
}
