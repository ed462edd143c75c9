package redlock

import (
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// Redlock figures of go-redsync/redsync v4 (redsync.go, NewMutex).
const (
	// MaxNodes bounds `nodes` in redlock mode.
	MaxNodes = 9
	// Tries is redsync's default number of tries per Lock call.
	Tries = 32
	// RetryDelay is the mean of redsync's default delay between
	// tries, rand in [50 ms, 250 ms).
	RetryDelay = 150 * time.Millisecond
	// TimeoutFactor is redsync's timeoutFactor: a try waits at most
	// ttl·0.05 for the masters' answers.
	TimeoutFactor = 0.05
	// DriftFloor is the spec's fixed 2 ms added to ttl·driftFactor
	// for the granularity of Redis's expiry (redlock-rb does the same).
	DriftFloor = 2 * time.Millisecond
)

// Quorum is the number of masters that must vote yes: N/2+1.
func Quorum(n int) int { return n/2 + 1 }

// Drift is the allowance for clock drift between the client and the
// masters that Redlock subtracts from the validity: ttl·driftFactor + 2 ms.
func Drift(ttl time.Duration, driftFactor float64) time.Duration {
	return time.Duration(int64(float64(ttl)*driftFactor)) + DriftFloor
}

// Validity is how long the client may consider the lock its own after
// a try that took elapsed on its clock: ttl − elapsed − drift.
func Validity(ttl, elapsed time.Duration, driftFactor float64) time.Duration {
	return ttl - elapsed - Drift(ttl, driftFactor)
}

// Timeout is redsync's per-try context deadline, ttl·timeoutFactor
// (mutex.go, lockContext: context.WithTimeout(ctx, expiry·timeoutFactor)).
func Timeout(ttl time.Duration) time.Duration {
	return time.Duration(int64(float64(ttl) * TimeoutFactor))
}

// go-redis v9 figures (redis/go-redis v9.23.0, options.go init: the
// defaults of Options; v9.21 and older had a 3 s ReadTimeout, which the
// scenario's readTimeout sets).
const (
	// GoRedisReadTimeout is Options.ReadTimeout's default: the socket read
	// deadline of every attempt of a command.
	GoRedisReadTimeout = 5 * time.Second
	// GoRedisMaxRetries is Options.MaxRetries' default: a command that
	// timed out on a read is tried again, at most this many more times.
	GoRedisMaxRetries = 3
)

// Wait is how long a master that stays silent (paused, partitioned)
// holds a try, or holds each master's turn with `sequential`: the moment
// go-redis gives up on its answer.
//
// go-redis v9 (redis.go): _process reads the reply under
// cn.WithReader(c.context(ctx), c.cmdTimeout(cmd), ...), and c.context
// returns the caller's ctx only when Options.ContextTimeoutEnabled is set,
// context.Background() otherwise; internal/pool/conn.go's deadline takes
// the earlier of the ctx deadline and now+ReadTimeout. A read timeout is
// retried (shouldRetry with retryTimeout set, error.go) after
// internal.Sleep(ctx, backoff), which returns at once when the caller's
// ctx is done, and at most MaxRetries more times.
//
//   - contextTimeout on: the wait is redsync's deadline ttl·0.05 (later
//     attempts' reads are cut by it too), but at most (MaxRetries+1) read
//     timeouts.
//   - contextTimeout off (go-redis's default, and redsync's README example
//     builds its client with default Options): every attempt reads for the
//     full ReadTimeout, and a new attempt starts only while redsync's
//     deadline has not passed; with ttl ≤ 100 s one attempt, 5 s.
//
// The retry backoffs (10 ms doubling, at most 1 s) are left out.
func Wait(ttl time.Duration, contextTimeout bool) time.Duration {
	return WaitWith(ttl, contextTimeout, GoRedisReadTimeout)
}

// WaitWith is Wait for a client whose ReadTimeout is readTimeout (the
// scenario's readTimeout: 3 s for go-redis v9.0 to v9.21).
func WaitWith(ttl time.Duration, contextTimeout bool, readTimeout time.Duration) time.Duration {
	deadline := Timeout(ttl)
	most := (GoRedisMaxRetries + 1) * readTimeout
	if contextTimeout {
		return min(deadline, most)
	}
	attempts := max(1, (deadline+readTimeout-1)/readTimeout)
	return min(attempts*readTimeout, most)
}

// redlockRetryDelay draws the wait before the next try: uniform in whole
// milliseconds over [retryDelay/3, 5·retryDelay/3), which for the default
// 150 ms is redsync's rand.Intn(250-50)+50 ms.
func redlockRetryDelay(ctx sim.Ctx) time.Duration {
	d := ctx.Scenario().RetryDelay.D()
	if d <= 0 {
		return 0
	}
	lo, span := d/3, d*4/3
	if n := int64(span / time.Millisecond); n > 0 {
		return lo + time.Duration(ctx.Rand().Int64N(n))*time.Millisecond
	}
	return lo + time.Duration(ctx.Rand().Int64N(int64(span)))
}

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = redlockMode{}

type redlockMode struct{}

func (redlockMode) Name() string { return "redlock" }

// redlockTraits: N independent masters the client counts itself, random
// values (no ordered token), a validity with every grant.
var redlockTraits = sim.Traits{
	Place:     2,
	LeaseWord: "ttl", ServerWord: serverWord, Token: sim.NoToken, Validity: true, ClientQuorum: true,
	Options: options,
	Refusals: map[string]error{
		"fencing":  ErrFencing,
		"replica":  sim.FieldErr("replica", sim.Say("field.redlockReplica"), "Redlock masters are independent and have no replica; use redis mode for one"),
		"plainDel": sim.FieldErr("plainDel", sim.Say("field.redlockPlainDel"), "only for redis; Redlock always releases with compare-and-delete"),
		// redsync's Mutex is not reentrant (go-redsync/redsync v4.17.0,
		// mutex.go: lockContext draws a new value and SET NX fails
		// against its own key on every master; it retries its tries and
		// returns ErrFailed or ErrTaken, m.value unchanged).
		"reenter": sim.FieldErr("reenter", sim.Say("field.redlockReenter"),
			"redsync's Mutex is not reentrant: a second Lock draws a new value, SET NX fails against its own key on every master, and after its tries it returns ErrFailed"),
	},
}

func (redlockMode) Traits() sim.Traits { return redlockTraits }

func (redlockMode) Defaults(sc *sim.Scenario) {
	sc.Tries = Tries
	sc.RetryDelay = sim.Duration(RetryDelay)
}

// ErrFencing explains why `fencing` is refused in redlock mode: a
// field's problem like any other, in both languages.
var ErrFencing = sim.FieldErr("fencing", sim.Say("field.redlockFencing"), "Redlock has no fencing token: its lock values are random, not ordered, "+
	"so the storage cannot tell a late write of an old holder from a new holder's (Kleppmann, \"How to do distributed locking\")")

// Validate has nothing of its own to check: its options are checked by
// their declarations (the number of masters).
func (redlockMode) Validate(sc *sim.Scenario) error { return nil }

func (redlockMode) Servers(sc *sim.Scenario) []string {
	out := make([]string, Nodes.Of(sc))
	for i := range out {
		out[i] = "redis-" + strconv.Itoa(i+1)
	}
	return out
}

func (redlockMode) CanFailover(sc *sim.Scenario, node string) error {
	return sim.FieldErr("", sim.Say("field.redlockFailover"), "Redlock masters have no replica to promote; use crash and restart")
}

// Failover never happens (CanFailover refuses it); a master just crashes.
func (redlockMode) Failover(s *sim.Sim, node sim.NodeID) { s.CrashNode(node) }

func (redlockMode) NewServer(sc *sim.Scenario, i int) sim.Process {
	return &redlockMaster{redis.NewMaster()}
}

func (redlockMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &redlockClient{} }
