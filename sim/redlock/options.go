package redlock

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// serverWord is what Redlock calls its servers (Traits.ServerWord), and
// the words of its number of masters.
const serverWord = "masters"

// The settings Redlock's scenarios have of their own (Traits.Options), in
// the order the scenario file writes them.
var (
	// Nodes is the number of independent masters, redis-1…redis-N.
	Nodes = sim.NewInt(sim.Option{Key: "nodes", Elsewhere: sim.Ignored, Words: serverWord,
		Describe: sim.DescribeFigure, Axis: "1:7:7"}, 5, func(n int) error {
		if n < 1 || n > MaxNodes {
			return sim.FieldErr("nodes", sim.Say("field.redlockNodes", "n", strconv.Itoa(n), "max", strconv.Itoa(MaxNodes)),
				"%d, want 1 to %d independent masters", n, MaxNodes)
		}
		return nil
	})
	// DriftFactor is redsync's driftFactor: the validity is ttl − elapsed
	// − (ttl·driftFactor + 2 ms).
	DriftFactor = sim.NewFloat(sim.Option{Key: "driftFactor", Changeable: true, Elsewhere: sim.IgnoredIfValid,
		Words: "driftFactor", Describe: sim.DescribeAsIs}, 0.01, func(f float64) error {
		if math.IsNaN(f) || f < 0 || f > 0.5 {
			return sim.FieldErr("driftFactor", sim.Say("field.fraction", "value", fmt.Sprint(f)), "%v, want 0 to 0.5", f)
		}
		return nil
	})
	// ContextTimeout is go-redis's ContextTimeoutEnabled: the client
	// honours redsync's per-try deadline instead of its read timeout.
	ContextTimeout = sim.NewBool(sim.Option{Key: "contextTimeout",
		Refusal: sim.OnlyReaders("contextTimeout", "field.contextTimeout", "only for %s (go-redis's ContextTimeoutEnabled)"),
		Words:   "contextTimeout", Describe: sim.DescribeOnOff}, false)
	// CheckValidity is the redsync application's look at Until() before
	// it writes (issue 13): past the validity it writes nothing.
	CheckValidity = sim.NewBool(sim.Option{Key: "checkValidity", Changeable: true, Refusal: sim.OnlyFor("checkValidity"),
		Words: "checkValidity", Describe: sim.DescribeWhenOn}, false)
	// Watchdog extends the lock on every master every TTL/3 while the
	// holder works (Mutex.Extend), as Redisson's watchdog does.
	Watchdog = sim.NewBool(sim.Option{Key: "watchdog", Changeable: true, Words: "watchdog", Describe: sim.DescribeOnOff}, false)
	// ReadTimeout is go-redis's Options.ReadTimeout, the socket read
	// deadline of each attempt of a command: 5 s from v9.22.0 (the pinned
	// v9.23.0, options.go init; RELEASE-NOTES.md of 9.22.0, "Cross-SDK
	// Aligned Defaults"), 3 s in v9.0 to v9.21. A silent master holds a try
	// for it unless contextTimeout is on (Wait).
	ReadTimeout = sim.NewDuration(sim.Option{Key: "readTimeout", Changeable: true,
		Refusal: sim.OnlyReaders("readTimeout", "field.readTimeout", "only for %s (go-redis's Options.ReadTimeout)"),
		Words:   "readTimeout", Describe: sim.DescribeAsIs, Axis: "1s:10s:10"}, GoRedisReadTimeout, func(d sim.Duration) error {
		if d.D() < time.Millisecond || d.D() > time.Minute {
			return sim.FieldErr("readTimeout", sim.Say("field.readTimeout.range", "value", d.D().String()),
				"%v, want 1ms to 1m (go-redis's read deadline)", d.D())
		}
		return nil
	})
	// Sequential asks the masters one after another instead of all at
	// once.
	Sequential = sim.NewBool(sim.Option{Key: "sequential", Refusal: sim.OnlyFor("sequential")}, false)
)

// options are Redlock's, in their order.
var options = []*sim.Option{Nodes.Option, DriftFactor.Option, ContextTimeout.Option, CheckValidity.Option,
	Watchdog.Option, Sequential.Option, ReadTimeout.Option}
