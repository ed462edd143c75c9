package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	simredis "github.com/lockscope/lockscope/sim/redis"
)

// The scripts the simulated server implements, as a real client sends them.
var (
	// casDelete is the compare-and-delete release of the Redis docs
	// ("Distributed Locks with Redis") that simredis.OpCAD models.
	casDelete = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
else
	return 0
end`)
	// casPExpire is the compare-and-PEXPIRE renewal (redsync's touchScript,
	// the shape of Redisson's renewal) that simredis.OpPExpire models.
	casPExpire = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
else
	return 0
end`)
	// fencedSet is SET NX PX plus INCR of the token counter, atomically:
	// what simredis.OpSet with N = 1 models.
	fencedSet = redis.NewScript(`if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return redis.call("INCR", KEYS[2])
else
	return false
end`)
)

// redisStep is one operation of a Redis plan: who sends what, when.
type redisStep struct {
	at     time.Duration
	client int    // 0 or 1: whose random value the step carries
	op     sim.Op // OpSet with fenced is the SET+INCR script
	fenced bool
	px     time.Duration
	to     int // 0: the master / first server; 1: the replica
}

// plainAnswer is the common form of a reply: "OK", "OK 3" (a fencing
// token), "nil", an integer, "READONLY" or "-" for no reply.
func simAnswer(step redisStep, r sim.ScriptReply, ok bool) string {
	if !ok {
		return "-"
	}
	reply := simredis.ReplyOf(&r.Msg)
	switch reply.Op {
	case simredis.OpOK:
		if step.fenced {
			return fmt.Sprintf("OK %d", reply.Token)
		}
		return "OK"
	case simredis.OpNil:
		return "nil"
	case simredis.OpInt:
		return strconv.FormatInt(reply.Int, 10)
	case simredis.OpReadOnly:
		return "READONLY"
	}
	return "? " + reply.Op.String()
}

// realRedis runs redis steps against real servers.
type realRedis struct {
	clients [2][]*redis.Client // [client][server]
	values  [2]string
	key     string
	counter string
}

func (rr *realRedis) do(ctx context.Context, st redisStep) string {
	c := rr.clients[st.client][st.to]
	v := rr.values[st.client]
	var (
		res any
		err error
	)
	switch {
	case st.op == simredis.OpSet && st.fenced:
		res, err = fencedSet.Run(ctx, c, []string{rr.key, rr.counter}, v, st.px.Milliseconds()).Result()
		if err == nil {
			return fmt.Sprintf("OK %d", res.(int64))
		}
	case st.op == simredis.OpSet:
		var ok bool
		ok, err = c.SetNX(ctx, rr.key, v, st.px).Result()
		if err == nil && ok {
			return "OK"
		}
		if err == nil {
			return "nil"
		}
	case st.op == simredis.OpCAD:
		res, err = casDelete.Run(ctx, c, []string{rr.key}, v).Result()
	case st.op == simredis.OpPExpire:
		res, err = casPExpire.Run(ctx, c, []string{rr.key}, v, st.px.Milliseconds()).Result()
	case st.op == simredis.OpDel:
		res, err = c.Del(ctx, rr.key).Result()
	default:
		panic("unknown op " + st.op.String())
	}
	switch {
	case errors.Is(err, redis.Nil):
		return "nil"
	case err != nil && strings.HasPrefix(err.Error(), "READONLY"):
		return "READONLY"
	case err != nil:
		return "error " + err.Error()
	}
	return fmt.Sprint(res)
}

// timed is what one real step did: when it was sent and answered, measured
// from the start of the plan, and the answer.
type timed struct {
	sent, recv time.Duration
	answer     string
}

// playReal sends the steps at their times by the wall clock.
func (rr *realRedis) play(t *testing.T, steps []redisStep) []timed {
	t.Helper()
	ctx := ctxFor(t, time.Minute)
	out := make([]timed, len(steps))
	t0 := time.Now()
	for i, st := range steps {
		time.Sleep(time.Until(t0.Add(st.at)))
		sent := time.Since(t0)
		a := rr.do(ctx, st)
		out[i] = timed{sent: sent, recv: time.Since(t0), answer: a}
	}
	return out
}

// playSim runs the same steps on the simulated servers of sc (redis mode,
// no latency: the server handles each step the instant it is sent), with
// step i sent at at(i); answers are in step order.
func playSim(t *testing.T, sc *sim.Scenario, steps []redisStep, at func(i int) time.Duration) []string {
	t.Helper()
	servers := sc.ServerNames()
	scripts := []*sim.ScriptClient{{}, {}}
	index := make([][2]int, len(steps)) // step -> client, index in its script
	var last time.Duration
	for i, st := range steps {
		m := simredis.Command{Op: st.op, Key: simredis.LockKey, Value: fmt.Sprintf("value-%d", st.client), PX: st.px, Fenced: st.fenced}.Msg()
		sc := scripts[st.client]
		index[i] = [2]int{st.client, len(sc.Steps)}
		sc.Steps = append(sc.Steps, sim.ScriptStep{At: at(i), To: servers[st.to], Msg: m})
		last = max(last, at(i))
	}
	sc = sc.Clone()
	sc.Duration = sim.Duration(last + time.Second)
	s, err := sim.NewScripted(sc, scripts...)
	require.NoError(t, err)
	s.Run()
	out := make([]string, len(steps))
	for i, st := range steps {
		r, ok := scripts[index[i][0]].Reply(index[i][1])
		out[i] = simAnswer(st, r, ok)
	}
	return out
}

// redisScenario is a redis-mode scenario whose network adds no latency, so
// the simulated server sees each step at the instant the script sends it.
func redisScenario(t *testing.T, replica bool) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("redis")
	require.NoError(t, err)
	sc.Latency, sc.Jitter, sc.Stagger = 0, 0, 0
	simredis.Replica.Set(sc, replica)
	return sc
}

func newRedisClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true})
}

func uniqueKey(t *testing.T) string {
	return fmt.Sprintf("lockscope:%s:%d", t.Name(), time.Now().UnixNano())
}

// TestRedisLockOperations plays one plan of SET NX PX, expiry,
// compare-and-delete, compare-and-PEXPIRE, fencing INCR and bare DEL on
// the real server by the wall clock and on the simulated one by the
// virtual clock, at the instants the real steps were actually sent.
func TestRedisLockOperations(t *testing.T) {
	addr := need(t, "LOCKSCOPE_REDIS")
	ms := time.Millisecond
	const A, B = 0, 1
	steps := []redisStep{
		{at: 0, client: A, op: simredis.OpSet, px: 1000 * ms},                      // free key: OK
		{at: 100 * ms, client: B, op: simredis.OpSet, px: 1000 * ms},               // held: nil
		{at: 200 * ms, client: B, op: simredis.OpCAD},                              // foreign value: 0
		{at: 300 * ms, client: B, op: simredis.OpPExpire, px: 5000 * ms},           // foreign value: 0
		{at: 400 * ms, client: A, op: simredis.OpPExpire, px: 2000 * ms},           // own: 1, now expires at 2400
		{at: 1500 * ms, client: B, op: simredis.OpSet, px: 1000 * ms},              // the first PX is over, but renewed: nil
		{at: 2700 * ms, client: B, op: simredis.OpSet, px: 1000 * ms},              // expired at 2400: OK
		{at: 2800 * ms, client: A, op: simredis.OpCAD},                             // A's lock is gone, B's is there: 0
		{at: 2900 * ms, client: A, op: simredis.OpPExpire, px: 1000 * ms},          // 0
		{at: 3000 * ms, client: B, op: simredis.OpCAD},                             // own: 1
		{at: 3100 * ms, client: A, op: simredis.OpCAD},                             // missing key: 0
		{at: 3200 * ms, client: A, op: simredis.OpPExpire, px: 1000 * ms},          // missing key: 0
		{at: 3300 * ms, client: A, op: simredis.OpDel},                             // missing key: 0
		{at: 3400 * ms, client: A, op: simredis.OpSet, fenced: true, px: 600 * ms}, // token 1
		{at: 3500 * ms, client: B, op: simredis.OpSet, fenced: true, px: 600 * ms}, // held: nil, no INCR
		{at: 3600 * ms, client: B, op: simredis.OpDel},                             // bare DEL of A's lock: 1
		{at: 3700 * ms, client: B, op: simredis.OpSet, fenced: true, px: 600 * ms}, // token 2
		{at: 4500 * ms, client: A, op: simredis.OpSet, fenced: true, px: 600 * ms}, // B's expired at 4300: token 3
		{at: 4600 * ms, client: A, op: simredis.OpCAD},                             // 1
	}
	want := []string{"OK", "nil", "0", "0", "1", "nil", "OK", "0", "0", "1", "0", "0", "0",
		"OK 1", "nil", "1", "OK 2", "OK 3", "1"}

	rr := &realRedis{key: uniqueKey(t), values: [2]string{"value-a", "value-b"}}
	rr.counter = rr.key + ":token"
	for c := range rr.clients {
		cl := newRedisClient(addr)
		t.Cleanup(func() { cl.Close() })
		rr.clients[c] = []*redis.Client{cl}
	}
	real := rr.play(t, steps)
	sc := redisScenario(t, false)
	early := playSim(t, sc, steps, func(i int) time.Duration { return real[i].sent })
	late := playSim(t, sc, steps, func(i int) time.Duration { return real[i].recv })
	for i, st := range steps {
		r := real[i]
		t.Logf("step %2d %-7s client %d at %6.1f ms: real %-5s sim %s", i, st.op, st.client, float64(r.sent)/1e6, r.answer, early[i])
		if early[i] != late[i] {
			// A boundary (an expiry) fell inside the real step's round
			// trip: the server may have seen it on either side.
			assert.Contains(t, []string{early[i], late[i]}, r.answer, "step %d", i)
			continue
		}
		assert.Equal(t, early[i], r.answer, "step %d (%s by client %d at %v): simulator vs real", i, st.op, st.client, r.sent)
	}
	// The plan's schedule keeps every expiry 200 ms or more from a step;
	// on time, both must give the expected answers too.
	onTime := playSim(t, sc, steps, func(i int) time.Duration { return steps[i].at })
	assert.Equal(t, want, onTime, "the simulator on the planned schedule")
}

// proxy forwards TCP connections to target; hold() stops the bytes coming
// back from target (the replication stream, when the replica connects
// through it) without closing anything, so a write can be made to be "not
// yet arrived" deterministically.
type proxy struct {
	ln     net.Listener
	target string
	gate   sync.RWMutex
	mu     sync.Mutex
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		// When either side ends, both do, as they would without a proxy.
		go func() {
			_, _ = io.Copy(out, in)
			out.Close()
			in.Close()
		}()
		go func() {
			defer in.Close()
			defer out.Close()
			buf := make([]byte, 32<<10)
			for {
				n, err := out.Read(buf)
				if n > 0 {
					p.gate.RLock()
					_, werr := in.Write(buf[:n])
					p.gate.RUnlock()
					if werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// hold stops forwarding target's bytes until release; it returns once no
// chunk is in the middle of being forwarded.
func (p *proxy) hold()    { p.gate.Lock() }
func (p *proxy) release() { p.gate.Unlock() }

func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// attachReplica makes replica replicate master through a fresh proxy and
// waits until the initial sync is over.
func attachReplica(t *testing.T, ctx context.Context, master, replica *redis.Client, masterAddr string) *proxy {
	t.Helper()
	p := newProxy(t, masterAddr)
	host, port, _ := net.SplitHostPort(p.addr())
	require.NoError(t, replica.Do(ctx, "REPLICAOF", host, port).Err())
	require.NoError(t, waitFor(20*time.Second, "replica sync", func() bool {
		info, err := replica.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up") && strings.Contains(info, "master_sync_in_progress:0")
	}))
	// After a diskless sync the master counts the replica (for WAIT) only
	// once its first REPLCONF ACK arrived: wait until it says "online".
	require.NoError(t, waitFor(20*time.Second, "replica online at the master", func() bool {
		info, err := master.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "state=online")
	}))
	return p
}

// TestRedisReplicaPromotion compares the async replica and its promotion:
// a replica refuses writes; a lock (and fencing counter) written on the
// master is on the promoted replica if the replication stream delivered
// it first, and lost if the promotion came first, so a second client gets
// the lock, and the same fencing token, again.
//
// The real "promotion before the write arrived" is made deterministic by
// replicating through a proxy that holds the stream back: the write is
// acknowledged by the master, the master's WAIT confirms no replica has
// it, and only then is the replica promoted (REPLICAOF NO ONE).
func TestRedisReplicaPromotion(t *testing.T) {
	masterAddr := need(t, "LOCKSCOPE_REDIS")
	replicaAddr := need(t, "LOCKSCOPE_REDIS_REPLICA")
	ctx := ctxFor(t, time.Minute)
	ms := time.Millisecond
	const A, B = 0, 1

	// In the simulator redis-1 applies a write at t+10 ms (latency 10 ms)
	// and its REPL reaches redis-2 at t+20 ms; the failover fault crashes
	// redis-1 and promotes redis-2 before (15 ms) or after (25 ms) that.
	steps := []redisStep{
		{at: 0, client: B, op: simredis.OpSet, px: 10000 * ms, to: 1},                     // on the replica, before any failover
		{at: 1 * ms, client: A, op: simredis.OpSet, fenced: true, px: 10000 * ms, to: 0},  // on the master: token 1
		{at: 60 * ms, client: B, op: simredis.OpSet, fenced: true, px: 10000 * ms, to: 1}, // on the promoted replica
		{at: 80 * ms, client: A, op: simredis.OpCAD, to: 1},                               // A releases on the promoted replica
	}
	simRun := func(failoverAt time.Duration) []string {
		sc := redisScenario(t, true)
		sc.Latency = sim.Duration(10 * ms)
		sc.Faults = []sim.Fault{{At: sim.Duration(failoverAt), Failover: "redis-1"}}
		// The real side promotes with REPLICAOF NO ONE at once, as
		// Sentinel's own order does; the simulator's Sentinel delay
		// (failoverAfter) is what comes before that order, so it is 0 here.
		simredis.FailoverAfter.Set(sc, 0)
		return playSim(t, sc, steps, func(i int) time.Duration { return steps[i].at })
	}

	master, replica := newRedisClient(masterAddr), newRedisClient(replicaAddr)
	t.Cleanup(func() {
		c := context.Background()
		_ = replica.Do(c, "REPLICAOF", "NO", "ONE").Err()
		master.Close()
		replica.Close()
	})
	realRun := func(arrived bool) []string {
		p := attachReplica(t, ctx, master, replica, masterAddr)
		rr := &realRedis{key: uniqueKey(t), values: [2]string{"value-0", "value-1"}}
		rr.counter = rr.key + ":token"
		rr.clients = [2][]*redis.Client{{master, replica}, {master, replica}}
		out := make([]string, len(steps))
		out[0] = rr.do(ctx, steps[0])
		if !arrived {
			p.hold()
			defer p.release()
		}
		out[1] = rr.do(ctx, steps[1])
		wait := 2000 // ms: returns as soon as the replica acknowledges
		if !arrived {
			wait = 500 // ms: must run out, the stream is held back
		}
		acked, err := master.Do(ctx, "WAIT", 1, wait).Int()
		require.NoError(t, err)
		n, err := replica.Exists(ctx, rr.key).Result()
		require.NoError(t, err)
		if arrived {
			require.Equal(t, 1, acked, "the replica acknowledged the write")
			require.Equal(t, int64(1), n, "the replica has the key")
		} else {
			require.Equal(t, 0, acked, "the held-back replica has not acknowledged the write")
			require.Equal(t, int64(0), n, "the replica does not have the key yet")
		}
		require.NoError(t, replica.Do(ctx, "REPLICAOF", "NO", "ONE").Err())
		out[2] = rr.do(ctx, steps[2])
		out[3] = rr.do(ctx, steps[3])
		return out
	}

	tests := []struct {
		name       string
		arrived    bool
		failoverAt time.Duration
		want       []string
	}{
		{"write arrived before the promotion", true, 25 * ms, []string{"READONLY", "OK 1", "nil", "1"}},
		{"promotion before the write arrived", false, 15 * ms, []string{"READONLY", "OK 1", "OK 1", "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			real := realRun(tt.arrived)
			simulated := simRun(tt.failoverAt)
			t.Logf("real %v, simulator %v", real, simulated)
			assert.Equal(t, tt.want, real, "the real servers")
			assert.Equal(t, real, simulated, "simulator vs real: a replica answers READONLY, then the failover")
		})
	}
}
