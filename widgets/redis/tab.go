package redis

import (
	"strconv"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// redisModeTab is the Redis tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab, its own below)
// and its protocol lines.
var redisModeTab = designtab.ModeTab{
	Mode:       "redis",
	Title:      "Redis",
	StateTitle: "state.redis",
	Preset:     "redis-gc-pause",
	NewState:   func() designtab.StateView { return NewKeys() },
	Sliders:    []string{"ttl", "work", "pause", "latency", "clients", "clockDrift", "failoverAfter"},
	Toggles:    []string{"watchdog", "fencing", "replica"},
	// The shared controls in Redis's words: SET NX PX and Redisson's
	// timeout, watchdog and INCR counter.
	SliderRules: map[string]func(*designtab.SliderSpec){
		"ttl":     func(s *designtab.SliderSpec) { s.Words = "redisTTL" },
		"latency": func(s *designtab.SliderSpec) { s.Words = "redisLatency" },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		"watchdog": func(t *designtab.ToggleSpec) { t.Words = "redisWatchdog" },
		"fencing":  func(t *designtab.ToggleSpec) { t.Words = "redisFencing" },
	},
	Protocol: redisProtocol,
}

// redisSliders and redisToggles are the controls only the Redis tab shows;
// its TTL, latency, fencing and watchdog are the shared ones, with its
// own words (its rules above).
var redisSliders = map[string]designtab.SliderSpec{
	// failoverAfter is Sentinel's delay; it applies only with a replica.
	"failoverAfter": {
		Key: "failoverAfter", Label: "Failover after", Min: 0, Max: 40, Step: 0.5,
		Value:  func(sc *sim.Scenario) (float64, bool) { return designtab.Seconds(sc.FailoverAfter), sc.Replica },
		Apply:  func(sc *sim.Scenario, v float64) { sc.FailoverAfter = designtab.FromSeconds(v) },
		Format: designtab.FormatSeconds,
	},
}

var redisToggles = map[string]designtab.ToggleSpec{
	"replica": {
		Key: "replica", Label: "Replica",
		Value: func(sc *sim.Scenario) bool { return sc.Replica },
		Apply: func(sc *sim.Scenario, on bool) { sc.Replica = on },
	},
}

func init() { designtab.Register(redisModeTab, redisSliders, redisToggles) }

// redisProtocol is the Redis lock as the scenario runs it, command by
// command, with its figures.
func redisProtocol(sc *sim.Scenario) []string {
	ms := func(d sim.Duration) string { return strconv.FormatInt(d.D().Milliseconds(), 10) }
	fencing := ""
	if sc.Fencing {
		fencing = i18n.T("redis.proto.incr")
	}
	out := []string{i18n.F("redis.proto.acquire", "px", ms(sc.TTL), "fencing", fencing, "retry", widgets.ShortTime(sc.RetryDelay.D()))}
	if sc.Watchdog {
		out = append(out, i18n.F("redis.proto.watchdog", "every", widgets.ShortTime(sc.TTL.D()/3), "px", ms(sc.TTL)))
	} else {
		out = append(out, i18n.F("redis.proto.noWatchdog", "ttl", widgets.ShortTime(sc.TTL.D())))
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
	return append(out, i18n.F("redis.proto.timeout", "t", widgets.ShortTime(redissim.RequestTimeout)))
}
