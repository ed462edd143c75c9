package redis

import (
	"strconv"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// Tab is the Redis tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab, its own below)
// and its protocol lines.
// It is the design's window side, a value: the list of designs (package
// designs) installs it with designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "redis",
	Title:      "Redis",
	StateTitle: "state.redis",
	Preset:     "redis-gc-pause",
	NewState:   func() designtab.StateView { return NewKeys() },
	Sliders: []string{"ttl", "work", "pause", "latency", "clients", "clockDrift",
		redissim.FailoverAfter.Key, redissim.Sentinels.Key, redissim.DownAfter.Key, redissim.Readers.Key},
	Toggles: []string{redissim.Client.Key, redissim.Watchdog.Key, "fencing", redissim.Replica.Key},
	// The shared controls in Redis's words: SET NX PX and Redisson's
	// timeout, watchdog and INCR counter; its options' controls
	// (designtab.OptionSlider, OptionToggle) with their range and words.
	SliderRules: map[string]func(*designtab.SliderSpec){
		"ttl":     func(s *designtab.SliderSpec) { s.Words = "redisTTL" },
		"latency": func(s *designtab.SliderSpec) { s.Words = "redisLatency" },
		// Sentinel's delay; it applies only with a replica (its option's
		// Applies).
		redissim.FailoverAfter.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Min, s.Max, s.Step = "Failover after", 0, 40, 0.5
		},
		// Sentinel processes (0: the failover fault's delay alone) and
		// their down-after-milliseconds; both apply only with a replica.
		redissim.Sentinels.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Min, s.Max, s.Step = "Sentinels", 0, 7, 1
		},
		redissim.DownAfter.Key: func(s *designtab.SliderSpec) {
			s.Label, s.Min, s.Max, s.Step = "Down after", 0.5, 40, 0.5
		},
		redissim.Readers.Key: func(s *designtab.SliderSpec) { s.Label, s.Max = "Readers", 12 },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		redissim.Watchdog.Key: func(t *designtab.ToggleSpec) { t.Words, t.Label = "redisWatchdog", "Watchdog" },
		"fencing":             func(t *designtab.ToggleSpec) { t.Words = "redisFencing" },
		redissim.Replica.Key:  func(t *designtab.ToggleSpec) { t.Label = "Replica" },
		// The client, a select: Redisson 4.7.0's RLock, Redisson 3.16.8's
		// (toggle.client.<value>, the release in its tooltip) or the
		// redis.io recipe's.
		redissim.Client.Key: func(t *designtab.ToggleSpec) { t.Label = "Client" },
	},
	Protocol: redisProtocol,
}

// redisProtocol is the Redis lock as the scenario runs it, command by
// command, with its figures.
func redisProtocol(sc *sim.Scenario) []string {
	ms := func(d sim.Duration) string { return strconv.FormatInt(d.D().Milliseconds(), 10) }
	fencing := ""
	if sc.Fencing {
		fencing = i18n.T("redis.proto.incr")
	}
	plain := redissim.Client.Of(sc) == redissim.ClientPlain
	acquire, release := "redis.proto.acquire", "redis.proto.release"
	switch {
	case plain:
		acquire, release = "redis.proto.acquirePlain", "redis.proto.releasePlain"
	case redissim.Readers.IsOn(sc): // RReadWriteLock (sim/redis/rwlock.go)
		acquire, release = "redis.proto.acquireRW", "redis.proto.releaseRW"
	}
	out := []string{i18n.F(acquire, "px", ms(sc.TTL), "fencing", fencing, "retry", widgets.ShortTime(sc.RetryDelay.D()))}
	if redissim.Watchdog.Of(sc) {
		out = append(out, i18n.F("redis.proto.watchdog", "every", widgets.ShortTime(sc.TTL.D()/3), "px", ms(sc.TTL)))
	} else {
		out = append(out, i18n.F("redis.proto.noWatchdog", "ttl", widgets.ShortTime(sc.TTL.D())))
	}
	if redissim.PlainDel.Of(sc) {
		out = append(out, i18n.T("redis.proto.plainDel"))
	} else {
		out = append(out, i18n.T(release))
	}
	if sc.Fencing {
		out = append(out, i18n.T("redis.proto.storageFenced"))
	} else {
		out = append(out, i18n.T("redis.proto.storage"))
	}
	client := redissim.Client.Of(sc)
	if redissim.Replica.Of(sc) {
		out = append(out, i18n.T("redis.proto.replica"))
		if client == redissim.ClientRedisson || client == redissim.ClientRedissonFair {
			out = append(out, i18n.F("redis.proto.wait", "t", strconv.FormatInt(redissim.SlavesSyncTimeout.Milliseconds(), 10)))
		}
		if n := redissim.Sentinels.Of(sc); n > 0 {
			out = append(out, i18n.F("redis.proto.sentinels", "n", strconv.Itoa(n), "quorum", strconv.Itoa(n/2+1),
				"downAfter", widgets.ShortTime(redissim.DownAfter.Of(sc).D())))
		}
	}
	timeout := map[string]string{redissim.ClientRedisson: "redis.proto.timeout", redissim.ClientRedissonFair: "redis.proto.timeout", redissim.ClientRedisson316: "redis.proto.timeout316",
		redissim.ClientPlain: "redis.proto.timeoutPlain"}[client]
	return append(out, i18n.F(timeout, "t", widgets.ShortTime(redissim.RequestTimeout)))
}
