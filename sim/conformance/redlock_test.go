package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redlock"
)

// redlockTTL is the lock TTL of every Redlock plan; driftFactor and the
// per-try timeout are redsync's defaults (0.01 and 0.05·TTL).
const redlockTTL = 10 * time.Second

// masters are the five real redis-server processes of the Redlock plans.
// The test runs them itself because the plans kill, freeze and restart
// them; every start is empty (no RDB, no AOF), like a restart without
// persistence.
type masters struct {
	t     *testing.T
	bin   string
	ports []string
	procs []*process
	conns []*redis.Client
}

func startMasters(t *testing.T) *masters {
	t.Helper()
	bin := need(t, "LOCKSCOPE_REDIS_SERVER")
	ms := &masters{t: t, bin: bin, ports: strings.Split(need(t, "LOCKSCOPE_REDLOCK_PORTS"), ",")}
	require.Len(t, ms.ports, 5)
	ms.procs = make([]*process, len(ms.ports))
	for i, port := range ms.ports {
		ms.conns = append(ms.conns, redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + port, ContextTimeoutEnabled: true}))
		ms.start(i)
	}
	t.Cleanup(func() {
		for _, c := range ms.conns {
			c.Close()
		}
	})
	ms.ready()
	return ms
}

// start boots master i, empty.
func (ms *masters) start(i int) {
	dir := filepath.Join(need(ms.t, "LOCKSCOPE_WORK"), "redlock-"+ms.ports[i])
	require.NoError(ms.t, os.MkdirAll(dir, 0o755))
	ms.procs[i] = startProcess(ms.t, "redlock-"+ms.ports[i], ms.bin,
		"--port", ms.ports[i], "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no")
}

// ready waits until every running master answers PING.
func (ms *masters) ready() {
	for i, c := range ms.conns {
		if ms.procs[i].cmd.ProcessState != nil {
			continue
		}
		require.NoError(ms.t, waitFor(20*time.Second, "redis on "+ms.ports[i], func() bool {
			return c.Ping(context.Background()).Err() == nil
		}))
	}
}

func (ms *masters) kill(i ...int) {
	for _, j := range i {
		ms.procs[j].kill()
	}
}

func (ms *masters) restart(i ...int) {
	for _, j := range i {
		ms.procs[j].kill()
		ms.start(j)
	}
	ms.ready()
}

func (ms *masters) freeze(i ...int) {
	for _, j := range i {
		require.NoError(ms.t, ms.procs[j].freeze())
	}
}

func (ms *masters) thaw(i ...int) {
	for _, j := range i {
		require.NoError(ms.t, ms.procs[j].thaw())
	}
}

// redsyncLock is one redsync Lock call with a single try, as it came out.
type redsyncLock struct {
	granted  bool
	err      error
	elapsed  time.Duration // t1 − t0 around LockContext: the try's elapsed is at most this
	validity time.Duration // Until() − t1: the validity left when Lock returned
	until    time.Time
	t0       time.Time
}

// lock runs one redsync Lock with default options but one try, over fresh
// go-redis clients (pools) with ContextTimeoutEnabled, as an application
// would.
func (ms *masters) lock(key string) redsyncLock {
	var pools []redsyncredis.Pool
	for _, port := range ms.ports {
		c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + port, ContextTimeoutEnabled: true})
		ms.t.Cleanup(func() { c.Close() })
		pools = append(pools, goredis.NewPool(c))
	}
	return lockOn(pools, key, redlockTTL)
}

// warmPools makes one go-redis client per master with the given
// ContextTimeoutEnabled and default options otherwise (redsync's README
// example passes only Addr), and opens a connection on each while every
// master answers, as a running application has them.
func (ms *masters) warmPools(contextTimeout bool) []redsyncredis.Pool {
	return ms.warmPoolsReading(contextTimeout, 0)
}

// warmPoolsReading is warmPools with go-redis's Options.ReadTimeout set
// (0: the release's default).
func (ms *masters) warmPoolsReading(contextTimeout bool, readTimeout time.Duration) []redsyncredis.Pool {
	var pools []redsyncredis.Pool
	for _, port := range ms.ports {
		c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + port, ContextTimeoutEnabled: contextTimeout, ReadTimeout: readTimeout})
		ms.t.Cleanup(func() { c.Close() })
		require.NoError(ms.t, c.Ping(ctxFor(ms.t, 5*time.Second)).Err())
		pools = append(pools, goredis.NewPool(c))
	}
	return pools
}

// lockOn runs one redsync Lock with one try and the given expiry.
func lockOn(pools []redsyncredis.Pool, key string, ttl time.Duration) redsyncLock {
	m := redsync.New(pools...).NewMutex(key, redsync.WithExpiry(ttl), redsync.WithTries(1))
	t0 := time.Now()
	err := m.LockContext(context.Background())
	t1 := time.Now()
	l := redsyncLock{granted: err == nil, err: err, elapsed: t1.Sub(t0), until: m.Until(), t0: t0}
	if l.granted {
		l.validity = m.Until().Sub(t1)
	}
	return l
}

// simGrant is one Redlock grant of the simulated client.
type simGrant struct {
	client   string
	at       time.Duration
	validity time.Duration
}

// runRedlockSim runs the simulated Redlock clients of a plan: tries 1,
// no latency, TTL 10 s, contextTimeout on (as lock's go-redis clients),
// and returns their grants.
func runRedlockSim(t *testing.T, clients int, stagger time.Duration, faults []sim.Fault) []simGrant {
	t.Helper()
	return runRedlockSimWith(t, clients, stagger, faults, func(sc *sim.Scenario) { redlock.ContextTimeout.Set(sc, true) })
}

// runRedlockSimWith is runRedlockSim with the scenario changed by set.
func runRedlockSimWith(t *testing.T, clients int, stagger time.Duration, faults []sim.Fault, set func(sc *sim.Scenario)) []simGrant {
	t.Helper()
	sc, err := sim.Defaults("redlock")
	require.NoError(t, err)
	sc.Clients, sc.Stagger, sc.Tries = clients, sim.Duration(stagger), 1
	sc.Latency, sc.Jitter = 0, 0
	sc.TTL, sc.Work = sim.Duration(redlockTTL), sim.Duration(8*time.Second)
	sc.Duration = sim.Duration(20 * time.Second)
	sc.Faults = faults
	set(sc)
	s, err := sim.New(sc)
	require.NoError(t, err)
	sum := s.Run()
	var out []simGrant
	for _, g := range sum.Grants {
		require.NotNil(t, g.ValidityMs)
		out = append(out, simGrant{client: g.Client, at: time.Duration(g.AtMs * float64(time.Millisecond)),
			validity: time.Duration(*g.ValidityMs * float64(time.Millisecond))})
	}
	return out
}

func faultsOn(kind string, at time.Duration, nodes ...int) []sim.Fault {
	var out []sim.Fault
	for _, n := range nodes {
		f := sim.Fault{At: sim.Duration(at)}
		name := "redis-" + strconv.Itoa(n+1)
		switch kind {
		case "crash":
			f.Crash = name
		case "restart":
			f.Restart = name
		case "pause":
			f.Pause, f.For = name, sim.Duration(time.Minute)
		}
		out = append(out, f)
	}
	return out
}

// checkValidity compares one grant's validity. With the same elapsed time
// e, redsync's validity is TTL − e − TTL·driftFactor and the simulator's
// is the same minus the spec's 2 ms. The real e is not observable from
// outside Lock, only bounded by the call's duration, so the test checks
//
//	realValidity − simValidity − 2 ms  ∈  [eSim − (t1−t0), eSim]  (±1 ms)
//
// which fails for any other drift, any other constant, or an elapsed time
// measured differently. It also checks redsync's own identity
// until = start + TTL − TTL·driftFactor, start ∈ [t0, t1].
func checkValidity(t *testing.T, real redsyncLock, s simGrant, eSim time.Duration) {
	t.Helper()
	checkValidityTTL(t, real, s, eSim, redlockTTL)
}

// checkValidityTTL is checkValidity for a lock of the given TTL.
func checkValidityTTL(t *testing.T, real redsyncLock, s simGrant, eSim, ttl time.Duration) {
	t.Helper()
	drift := time.Duration(float64(ttl) * 0.01)
	base := real.until.Sub(real.t0)
	assert.GreaterOrEqual(t, base, ttl-drift, "redsync: until ≥ t0 + TTL − drift")
	assert.LessOrEqual(t, base, ttl-drift+real.elapsed, "redsync: until ≤ t1 + TTL − drift")
	assert.Equal(t, ttl-eSim-drift-redlock.DriftFloor, s.validity, "the simulator: TTL − elapsed − (TTL·0.01 + 2 ms)")
	d := real.validity - s.validity - redlock.DriftFloor
	assert.LessOrEqual(t, d, eSim+time.Millisecond, "validity: real %v, simulator %v", real.validity, s.validity)
	assert.GreaterOrEqual(t, d, eSim-real.elapsed-time.Millisecond, "validity: real %v, simulator %v", real.validity, s.validity)
	t.Logf("validity: redsync %.3f ms (Lock took %.3f ms), simulator %.3f ms (elapsed %v): real − sim = %.3f ms",
		msOf(real.validity), msOf(real.elapsed), msOf(s.validity), eSim, msOf(real.validity-s.validity))
}

func msOf(d time.Duration) float64 { return float64(d) / 1e6 }

// TestRedlockPlans runs redsync v4 against five real masters and the
// simulated Redlock client against five simulated ones under the same
// plans, and compares who is granted and the validity.
func TestRedlockPlans(t *testing.T) {
	ms5 := startMasters(t)
	timeout := time.Duration(float64(redlockTTL) * 0.05)

	t.Run("all up", func(t *testing.T) {
		real := ms5.lock(uniqueKey(t))
		grants := runRedlockSim(t, 1, 0, nil)
		require.True(t, real.granted, "redsync: %v", real.err)
		require.Len(t, grants, 1)
		checkValidity(t, real, grants[0], 0)
	})

	t.Run("2 frozen", func(t *testing.T) {
		// A frozen master (SIGSTOP) keeps its connections and never answers:
		// the try waits out its 0.05·TTL deadline, as it does in the
		// simulator, where a crashed or paused master is silent.
		ms5.freeze(3, 4)
		real := ms5.lock(uniqueKey(t))
		ms5.thaw(3, 4)
		grants := runRedlockSim(t, 1, 0, faultsOn("pause", 0, 3, 4))
		require.True(t, real.granted, "redsync: %v", real.err)
		require.Len(t, grants, 1)
		assert.GreaterOrEqual(t, real.elapsed, timeout, "redsync waited for the frozen masters")
		checkValidity(t, real, grants[0], timeout)
	})

	t.Run("2 killed", func(t *testing.T) {
		ms5.kill(3, 4)
		real := ms5.lock(uniqueKey(t))
		ms5.restart(3, 4)
		grants := runRedlockSim(t, 1, 0, faultsOn("crash", 0, 3, 4))
		require.True(t, real.granted, "redsync: %v", real.err)
		require.Len(t, grants, 1)
		// A killed redis-server's port refuses connections at once, but
		// go-redis v9 retries a refused dial (DialerRetries 5, 100 ms
		// apart) until redsync's 0.05·TTL deadline cuts it off: the try
		// waits the deadline, as it does in the simulator, whose dead
		// master is silent (DIFFERENCES.md).
		assert.GreaterOrEqual(t, real.elapsed, timeout, "redsync waited for the killed masters")
		checkValidity(t, real, grants[0], timeout)
	})

	t.Run("3 killed", func(t *testing.T) {
		ms5.kill(2, 3, 4)
		real := ms5.lock(uniqueKey(t))
		ms5.restart(2, 3, 4)
		grants := runRedlockSim(t, 1, 0, faultsOn("crash", 0, 2, 3, 4))
		assert.False(t, real.granted, "redsync must not grant with 2 of 5")
		// With one try redsync returns the last try's joined per-node
		// errors rather than ErrFailed.
		var nodeErr *redsync.RedisError
		assert.ErrorAs(t, real.err, &nodeErr)
		assert.Empty(t, grants, "the simulator must not grant with 2 of 5")
	})

	t.Run("one restarted without persistence while held", func(t *testing.T) {
		// A holds the lock on masters 1-3 (4 and 5 down); 4 and 5 come
		// back, and 3 restarts empty; B then gets 3, 4 and 5: two holders.
		key := uniqueKey(t)
		ms5.kill(3, 4)
		a := ms5.lock(key)
		ms5.restart(3, 4)
		ms5.restart(2)
		b := ms5.lock(key)
		require.True(t, a.granted, "redsync A: %v", a.err)
		require.True(t, b.granted, "redsync B: %v", b.err)
		assert.True(t, time.Now().Before(a.until), "A still believes it holds the lock when B is granted")

		var faults []sim.Fault
		faults = append(faults, faultsOn("crash", 0, 3, 4)...)
		faults = append(faults, faultsOn("restart", time.Second, 3, 4)...)
		faults = append(faults, faultsOn("crash", 1200*time.Millisecond, 2)...)
		faults = append(faults, faultsOn("restart", 1300*time.Millisecond, 2)...)
		grants := runRedlockSim(t, 2, 2*time.Second, faults)
		require.Len(t, grants, 2, "both simulated clients are granted")
		assert.Equal(t, "client-1", grants[0].client)
		assert.Equal(t, "client-2", grants[1].client)
		assert.Less(t, grants[1].at, grants[0].at+grants[0].validity, "client-1's validity has not run out at client-2's grant")
		checkValidity(t, a, grants[0], timeout)
		checkValidity(t, b, grants[1], 0)
	})
}

// TestRedlockContextTimeout runs redsync over go-redis v9 with two of five
// masters frozen (SIGSTOP: connections open, no answer), once with
// go-redis's ContextTimeoutEnabled and once with its default (off, as in
// redsync's README), against the simulator's contextTimeout on and off
// with two paused masters. Off, go-redis reads the frozen masters for its
// ReadTimeout (5 s in v9.23) whatever redsync's 0.05·TTL deadline says.
//
//   - TTL 10 s: granted both ways, the validity shorter by the wait
//     (500 ms on, 5 s off), compared as in TestRedlockPlans.
//   - TTL 4 s: on, granted after 200 ms; off, the 3 votes come with a
//     validity of 4000 − 5000 − 40 ms < 0: no grant, although a majority
//     said yes.
func TestRedlockContextTimeout(t *testing.T) {
	ms5 := startMasters(t)
	paused := faultsOn("pause", 0, 3, 4)
	for _, on := range []bool{true, false} {
		wait := redlock.Wait(redlockTTL, on)
		t.Run(fmt.Sprintf("TTL 10s contextTimeout=%v", on), func(t *testing.T) {
			pools := ms5.warmPools(on)
			ms5.freeze(3, 4)
			real := lockOn(pools, uniqueKey(t), redlockTTL)
			ms5.thaw(3, 4)
			grants := runRedlockSimWith(t, 1, 0, paused, func(sc *sim.Scenario) { redlock.ContextTimeout.Set(sc, on) })
			require.True(t, real.granted, "redsync: %v", real.err)
			require.Len(t, grants, 1)
			assert.GreaterOrEqual(t, real.elapsed, wait, "redsync waited for the frozen masters")
			assert.Less(t, real.elapsed, wait+time.Second, "redsync did not wait longer than go-redis's read")
			checkValidity(t, real, grants[0], wait)
		})
		// go-redis up to v9.21 read for 3 s (its ReadTimeout default then):
		// the simulator's readTimeout stands for the older release.
		const older = 3 * time.Second
		t.Run(fmt.Sprintf("TTL 10s readTimeout=3s contextTimeout=%v", on), func(t *testing.T) {
			wait := redlock.WaitWith(redlockTTL, on, older)
			pools := ms5.warmPoolsReading(on, older)
			ms5.freeze(3, 4)
			real := lockOn(pools, uniqueKey(t), redlockTTL)
			ms5.thaw(3, 4)
			grants := runRedlockSimWith(t, 1, 0, paused, func(sc *sim.Scenario) {
				redlock.ContextTimeout.Set(sc, on)
				redlock.ReadTimeout.Set(sc, sim.Duration(older))
			})
			require.True(t, real.granted, "redsync: %v", real.err)
			require.Len(t, grants, 1)
			assert.GreaterOrEqual(t, real.elapsed, wait, "redsync waited for the frozen masters")
			assert.Less(t, real.elapsed, wait+time.Second, "redsync did not wait longer than go-redis's read")
			checkValidity(t, real, grants[0], wait)
		})
		const short = 4 * time.Second
		t.Run(fmt.Sprintf("TTL 4s contextTimeout=%v", on), func(t *testing.T) {
			pools := ms5.warmPools(on)
			ms5.freeze(3, 4)
			real := lockOn(pools, uniqueKey(t), short)
			ms5.thaw(3, 4)
			grants := runRedlockSimWith(t, 1, 0, paused, func(sc *sim.Scenario) {
				redlock.ContextTimeout.Set(sc, on)
				sc.TTL, sc.Work = sim.Duration(short), sim.Duration(time.Second)
			})
			t.Logf("redsync: granted %v after %.1f ms (%v); simulator: %d grants", real.granted, msOf(real.elapsed), real.err, len(grants))
			if on {
				require.True(t, real.granted, "redsync: %v", real.err)
				require.Len(t, grants, 1)
				checkValidityTTL(t, real, grants[0], redlock.Wait(short, on), short)
				return
			}
			assert.False(t, real.granted, "redsync must not grant: the votes took longer than the TTL allows")
			// With one try redsync returns the try's joined per-node errors
			// (the two read timeouts) rather than ErrFailed.
			var nodeErr *redsync.RedisError
			assert.ErrorAs(t, real.err, &nodeErr)
			// The failed try's unlock waits for the frozen masters too.
			assert.GreaterOrEqual(t, real.elapsed, 2*redlock.GoRedisReadTimeout, "redsync read the frozen masters twice (SET, then unlock)")
			assert.Empty(t, grants, "the simulator must not grant either")
		})
	}
}
