package conformance

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	simredis "github.com/lockscope/lockscope/sim/redis"
)

// Redisson 4.7.0's RLock scripts, as RedissonLock sends them (redisson/
// redisson tag redisson-4.7.0 redisson/src/main/java/org/redisson/
// RedissonLock.java, tryLockInnerAsync and unlockInnerAsync), written out
// here to send the same commands: the lock is a hash whose field is the
// holder's lock name with its hold count; the unlock answers from its
// latch if the latch is set, else counts the hold down and, at 0,
// deletes the key, publishes on the lock's channel and sets the latch.
var (
	// KEYS[1] the lock; ARGV[1] the lease (ms), ARGV[2] the lock name.
	// nil: granted; otherwise the holder's PTTL.
	redissonLockScript = redis.NewScript(`if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
	redis.call('hincrby', KEYS[1], ARGV[2], 1)
	redis.call('pexpire', KEYS[1], ARGV[1])
	return nil
end
return redis.call('pttl', KEYS[1])`)
	// KEYS[1] the lock, KEYS[2] its channel, KEYS[3] the unlock latch;
	// ARGV[1] the unlock message, ARGV[2] the lease, ARGV[3] the lock
	// name, ARGV[4] the publish command, ARGV[5] the latch's PX.
	redissonUnlockScript = redis.NewScript(`local latch = redis.call('get', KEYS[3])
if latch ~= false then
	return tonumber(latch)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
	return nil
end
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then
	redis.call('pexpire', KEYS[1], ARGV[2])
	redis.call('set', KEYS[3], 0, 'px', ARGV[5])
	return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1`)
)

// Redisson 4.7.0's defaults the batch uses (config/Config.java,
// config/BaseConfig.java at redisson-4.7.0).
const (
	redissonLease       = 30 * time.Second // lockWatchdogTimeout: the lease of lock()
	redissonSyncTimeout = time.Second      // slavesSyncTimeout: WAIT's timeout
	// redissonLatchPX is the unlock latch's PX, RedissonBaseLock.
	// unlockInnerAsync's (timeout + retryDelay.calcDelay(retryAttempts)) ×
	// retryAttempts: calcDelay(4) is a draw in 1–2 s; 1.5 s here.
	redissonLatchPX = (3*time.Second + 1500*time.Millisecond) * 4
)

// redissonClient sends, through go-redis, what one Redisson 4.7.0 client
// with a Sentinel configuration sends for RLock's lock and unlock scripts
// (CommandAsyncService.syncedEval, reached through RedissonBaseLock.
// evalWriteSyncedNoRetryAsync → syncedEvalNoRetry, SyncMode.WAIT):
//   - once, the probe of WAIT's support: a batch of WAIT 0 0 and WAITAOF
//     0 0 0 (redis 7.0 has no WAITAOF: "ERR unknown command", so the
//     supported commands are WAIT alone);
//   - while the entry's availableSlaves is -1 (unknown): INFO ALL, its
//     connected_slaves;
//   - the script batch (CommandBatchService.executeAsync): SCRIPT LOAD
//     first where the script is not cached for the address (loadScripts,
//     useScriptCache true), then EVALSHA followed by WAIT availableSlaves
//     slavesSyncTimeout on one connection (BatchOptions.defaults():
//     ExecutionMode.IN_MEMORY, a pipeline with no MULTI/EXEC; the WAIT
//     appended only when availableSlaves > 0). The batch completes when
//     both replies are in.
//   - a WAIT answer other than availableSlaves sets availableSlaves to -1;
//     an answer of 0 with availableSlaves > 0 is NoSyncedSlavesException.
type redissonClient struct {
	c      *redis.Client
	name   string // the lock name: the client's id and thread (getLockName)
	probed bool
	slaves int // MasterSlaveEntry.availableSlaves; -1 until read
	loaded map[string]bool
}

func newRedissonClient(addr, id string) *redissonClient {
	return &redissonClient{c: newRedisClient(addr), name: id + ":1", slaves: -1, loaded: map[string]bool{}}
}

// batchReply is what one script batch got back.
type batchReply struct {
	answer  any           // the script's answer; nil for a Lua nil
	synced  int           // WAIT's answer; -1 when the batch had no WAIT
	waitN   int           // the WAIT's numreplicas
	noSync  bool          // NoSyncedSlavesException
	sent    time.Time     // when the batch went out
	took    time.Duration // until its last reply
	waitAOF string        // the probe's WAITAOF reply, if this call probed
}

// syncedEval is one CommandAsyncService.syncedEval of script.
func (r *redissonClient) syncedEval(t *testing.T, ctx context.Context, script *redis.Script, keys []string, args ...any) batchReply {
	t.Helper()
	var out batchReply
	if !r.probed {
		pipe := r.c.Pipeline()
		w := pipe.Do(ctx, "WAIT", 0, 0)
		aof := pipe.Do(ctx, "WAITAOF", 0, 0, 0)
		_, _ = pipe.Exec(ctx)
		require.NoError(t, w.Err(), "WAIT 0 0")
		if aof.Err() != nil {
			out.waitAOF = aof.Err().Error()
		} else {
			out.waitAOF = fmt.Sprint(aof.Val())
		}
		r.probed = true
	}
	if r.slaves == -1 {
		info, err := r.c.Info(ctx, "all").Result()
		require.NoError(t, err)
		r.slaves = infoInt(info, "connected_slaves")
	}
	if !r.loaded[script.Hash()] {
		require.NoError(t, script.Load(ctx, r.c).Err())
		r.loaded[script.Hash()] = true
	}
	out.waitN = r.slaves
	pipe := r.c.Pipeline()
	eval := pipe.Do(ctx, append([]any{"EVALSHA", script.Hash(), len(keys)}, append(keysAsArgs(keys), args...)...)...)
	var wait *redis.Cmd
	if r.slaves > 0 {
		wait = pipe.Do(ctx, "WAIT", r.slaves, redissonSyncTimeout.Milliseconds())
	}
	out.sent = time.Now()
	_, _ = pipe.Exec(ctx)
	out.took = time.Since(out.sent)
	switch v, err := eval.Result(); {
	case errors.Is(err, redis.Nil):
		out.answer = nil
	case err != nil:
		t.Fatalf("EVALSHA: %v", err)
	default:
		out.answer = v
	}
	out.synced = -1
	if wait != nil {
		n, err := wait.Int()
		require.NoError(t, err, "WAIT")
		out.synced = n
		if n != r.slaves {
			r.slaves = -1
		}
		out.noSync = n == 0
	}
	return out
}

func keysAsArgs(keys []string) []any {
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// infoInt is field's integer value in an INFO reply.
func infoInt(info, field string) int {
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// lock is tryAcquire's lock script with the lease of lock().
func (r *redissonClient) lock(t *testing.T, ctx context.Context, key string) batchReply {
	t.Helper()
	return r.syncedEval(t, ctx, redissonLockScript, []string{key}, redissonLease.Milliseconds(), r.name)
}

// unlock is unlockInnerAsync with a fresh request id, as handleNoSync
// sends it after NoSyncedSlavesException.
func (r *redissonClient) unlock(t *testing.T, ctx context.Context, key, requestID string) batchReply {
	t.Helper()
	return r.syncedEval(t, ctx, redissonUnlockScript,
		[]string{key, redissonChannel(key), redissonLatch(key, requestID)},
		0, redissonLease.Milliseconds(), r.name, "publish", redissonLatchPX.Milliseconds())
}

// redissonChannel and redissonLatch are the lock's channel and unlock
// latch names (RedissonObject.prefixName, RedissonLock.getChannelName,
// RedissonBaseLock.getUnlockLatchName).
func redissonChannel(key string) string { return "redisson_lock__channel:{" + key + "}" }
func redissonLatch(key, requestID string) string {
	return "redisson_unlock_latch:{" + key + "}:" + requestID
}

// granted says whether the lock script's answer is a grant (nil; a
// number is the holder's PTTL).
func granted(answer any) bool { return answer == nil }

// waitTolerance is how far a real WAIT's timed-out answer may come after
// the simulator's. The simulator answers at the timeout; redis-server
// 7.0.15 answers a timed-out WAIT from beforeSleep (src/timeout.c
// handleBlockedClientsTimeout: once mstime() is past the deadline), so at
// the first turn of its event loop after it: serverCron's, every 100 ms
// at the default hz 10, or any traffic sooner; plus this machine's
// scheduling.
const waitTolerance = 150 * time.Millisecond

// fastTolerance bounds a round trip that involves no timeout: a batch
// whose WAIT the replica acknowledged at once, or a script with no WAIT.
const fastTolerance = 50 * time.Millisecond

// realWaitStory is what the real group did in one story, every instant
// measured from the story's first lock batch.
type realWaitStory struct {
	lock           batchReply
	unlock         *batchReply // handleNoSync's, after NoSyncedSlavesException
	unlockSent     time.Duration
	keyOnMaster    bool // before the kill
	keyOnReplica   bool // before the kill
	latchOnMaster  bool
	latchOnReplica bool
	kill           time.Duration
	keyOnPromoted  bool // after +switch-master
	second         batchReply
	secondAt       time.Duration
}

// TestSentinelRedissonWait: Redisson 4.7.0's lock with WAIT (checkLock-
// SyncedSlaves, slavesSyncTimeout 1 s) on real redis-sentinel 7.0 (a
// master, its replica and three Sentinels), compared with the simulator's
// Redisson client under the same settings. Two stories on one group and
// one failover: client-1 locks key A with the replication stream flowing
// (WAIT answers 1 at once: granted, and the replica has the key), then,
// with the stream held, key B (WAIT answers 0 after 1 s:
// NoSyncedSlavesException, so Redisson unlocks, and that unlock's WAIT
// answers 0 too). Then SIGKILL of the master and +switch-master: the
// promoted replica has A and not B; a second client's lock is refused on
// A (safe) and granted on B, which client-1 never believed it held.
func TestSentinelRedissonWait(t *testing.T) {
	ctx := ctxFor(t, 50*time.Second)
	g := startSentinelGroup(t, ctx)
	switched := g.switchMaster(t, ctx)
	keyA, keyB := uniqueKey(t)+":A", uniqueKey(t)+":B"
	client1 := newRedissonClient(fmt.Sprintf("127.0.0.1:%d", sentinelMasterPort), "client-1-id")
	t.Cleanup(func() { client1.c.Close() })

	var flowing, held realWaitStory
	flowing.lock = client1.lock(t, ctx, keyA)
	assert.Contains(t, flowing.lock.waitAOF, "unknown command", "redis 7.0 has no WAITAOF: Redisson's probe leaves it WAIT alone")
	flowing.keyOnReplica = exists(t, ctx, g.rc, keyA)
	flowing.keyOnMaster = exists(t, ctx, g.mc, keyA)

	g.stream.hold()
	defer g.stream.release()
	held.lock = client1.lock(t, ctx, keyB)
	start := held.lock.sent
	if held.lock.noSync { // RedissonBaseLock.handleNoSync: unlock with a new request id
		u := client1.unlock(t, ctx, keyB, "request-1")
		held.unlock, held.unlockSent = &u, u.sent.Sub(start)
		held.latchOnMaster = exists(t, ctx, g.mc, redissonLatch(keyB, "request-1"))
		held.latchOnReplica = exists(t, ctx, g.rc, redissonLatch(keyB, "request-1"))
	}
	held.keyOnMaster = exists(t, ctx, g.mc, keyB)
	held.keyOnReplica = exists(t, ctx, g.rc, keyB)

	g.master.kill()
	killed := time.Now()
	held.kill, flowing.kill = killed.Sub(start), killed.Sub(flowing.lock.sent)
	var switchedAt time.Time
	select {
	case switchedAt = <-switched:
	case <-ctx.Done():
		t.Fatalf("no +switch-master")
	}
	require.NoError(t, waitFor(5*time.Second, "the replica promoted", func() bool {
		info, err := g.rc.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "role:master")
	}))
	t.Logf("SIGKILL to +switch-master: %v", switchedAt.Sub(killed))
	held.keyOnPromoted, flowing.keyOnPromoted = exists(t, ctx, g.rc, keyB), exists(t, ctx, g.rc, keyA)
	client2 := newRedissonClient(fmt.Sprintf("127.0.0.1:%d", sentinelReplicaPort), "client-2-id")
	t.Cleanup(func() { client2.c.Close() })
	held.second = client2.lock(t, ctx, keyB)
	flowing.second = client2.lock(t, ctx, keyA)
	held.secondAt, flowing.secondAt = held.second.sent.Sub(start), flowing.second.sent.Sub(flowing.lock.sent)

	t.Run("stream flowing", func(t *testing.T) {
		r := flowing
		t.Logf("real: lock batch %v (WAIT %d %v answered %d), key on replica %v; after the failover the key on the promoted replica %v, the second client's lock answered %v",
			r.lock.took, r.lock.waitN, redissonSyncTimeout, r.lock.synced, r.keyOnReplica, r.keyOnPromoted, r.second.answer)
		assert.Equal(t, 1, r.lock.waitN, "the batch carries WAIT 1 (connected_slaves)")
		assert.Equal(t, 1, r.lock.synced, "the replica acknowledged at once")
		assert.True(t, granted(r.lock.answer), "client-1 is granted")
		assert.True(t, r.keyOnMaster && r.keyOnReplica, "the key is on the master and the replica")
		assert.True(t, r.keyOnPromoted, "the promoted replica has the key")
		assert.False(t, granted(r.second.answer), "the second client's lock is refused (its PTTL): safe")
		assert.Equal(t, -1, r.second.synced, "no replica on the new master: no WAIT in the second client's batch")

		s := simWaitStory(t, false, r)
		t.Logf("simulator: WAIT answered %d after %v, granted at %v; the key on redis-2 at +switch-master %v; client-2 granted %v",
			s.synced, s.lockWait, s.grant, s.keyOnPromoted, s.secondGranted)
		assert.Equal(t, r.lock.synced, s.synced, "WAIT's answer: real vs simulator")
		assert.InDelta(t, r.lock.took.Seconds(), s.lockWait.Seconds(), fastTolerance.Seconds(), "WAIT's answer instant: real vs simulator")
		require.True(t, s.granted, "the simulated client-1 is granted")
		assert.InDelta(t, r.lock.took.Seconds(), s.grant.Seconds(), fastTolerance.Seconds(), "the grant instant: real vs simulator")
		assert.Equal(t, r.keyOnPromoted, s.keyOnPromoted, "the key on the promoted replica: real vs simulator")
		assert.Equal(t, granted(r.second.answer), s.secondGranted, "the second client's lock: real vs simulator")
		assert.Zero(t, s.violations, "the simulator: no two holders")
	})
	t.Run("stream held", func(t *testing.T) {
		r := held
		require.NotNil(t, r.unlock, "WAIT answered 0: Redisson unlocks (handleNoSync)")
		u := *r.unlock
		t.Logf("real: lock batch %v (WAIT %d answered %d), unlock sent at %v, its batch %v (script %v, WAIT answered %d); key on master %v, on replica %v; latch on master %v; after the failover the key on the promoted replica %v, the second client's lock answered %v after %v",
			r.lock.took, r.lock.waitN, r.lock.synced, r.unlockSent, u.took, u.answer, u.synced, r.keyOnMaster, r.keyOnReplica, r.latchOnMaster, r.keyOnPromoted, r.second.answer, r.second.took)
		assert.Equal(t, 1, r.lock.waitN, "the batch carries WAIT 1 (connected_slaves)")
		assert.True(t, granted(r.lock.answer), "the script itself granted on the master")
		assert.Equal(t, 0, r.lock.synced, "WAIT: no replica acknowledged")
		assert.True(t, r.lock.noSync, "NoSyncedSlavesException: client-1 never believes it holds the lock")
		assert.GreaterOrEqual(t, r.lock.took, redissonSyncTimeout, "WAIT answers at its timeout")
		assert.Equal(t, 1, u.waitN, "the unlock's batch carries WAIT 1 (INFO read again: connected_slaves 1)")
		assert.EqualValues(t, 1, u.answer, "the unlock script deleted the key")
		assert.Equal(t, 0, u.synced, "the unlock's WAIT: no replica acknowledged either")
		assert.GreaterOrEqual(t, u.took, redissonSyncTimeout)
		assert.False(t, r.keyOnMaster, "the master no longer has the key")
		assert.False(t, r.keyOnReplica, "the replica never had it")
		assert.True(t, r.latchOnMaster, "the unlock's latch is on the master")
		assert.False(t, r.latchOnReplica, "and not on the replica")
		assert.False(t, r.keyOnPromoted, "the promoted replica has no key")
		assert.True(t, granted(r.second.answer), "the second client's lock is granted on the new master")
		assert.Equal(t, -1, r.second.synced, "no replica on the new master: no WAIT in the second client's batch")

		s := simWaitStory(t, true, r)
		t.Logf("simulator: WAIT answered %d after %v, unlock sent at %v, its WAIT answered %d at %v; client-1 granted before +switch-master %v; crash to +switch-master %v; the key on redis-2 at +switch-master %v; client-2 granted %v after %v",
			s.synced, s.lockWait, s.unlockSent, s.unlockSynced, s.unlockWait, s.granted, s.switchAt-r.kill.Round(time.Millisecond), s.keyOnPromoted, s.secondGranted, s.secondTook)
		assert.Equal(t, r.lock.synced, s.synced, "WAIT's answer: real vs simulator")
		assert.InDelta(t, r.lock.took.Seconds(), s.lockWait.Seconds(), waitTolerance.Seconds(), "WAIT's answer instant: real vs simulator")
		assert.False(t, s.granted, "the simulated client-1 is not granted before +switch-master")
		assert.InDelta(t, r.unlockSent.Seconds(), s.unlockSent.Seconds(), waitTolerance.Seconds(), "the unlock's instant: real vs simulator")
		assert.Equal(t, u.synced, s.unlockSynced, "the unlock's WAIT answer: real vs simulator")
		assert.InDelta(t, u.took.Seconds(), (s.unlockWait - s.unlockSent).Seconds(), waitTolerance.Seconds(), "the unlock's WAIT: real vs simulator")
		assert.Equal(t, r.keyOnPromoted, s.keyOnPromoted, "the key on the promoted replica: real vs simulator")
		assert.Equal(t, granted(r.second.answer), s.secondGranted, "the second client's lock: real vs simulator")
		assert.InDelta(t, r.second.took.Seconds(), s.secondTook.Seconds(), fastTolerance.Seconds(), "the second client's grant, from its lock's send: real vs simulator")
		assert.Zero(t, s.violations, "the simulator: client-1 never held it, so no two holders")
	})
}

// exists says whether key is in c's keyspace.
func exists(t *testing.T, ctx context.Context, c *redis.Client, key string) bool {
	t.Helper()
	n, err := c.Exists(ctx, key).Result()
	require.NoError(t, err)
	return n == 1
}

// simWaitOutcome is what the simulator's Redisson client did in a story,
// instants from client-1's first lock send.
type simWaitOutcome struct {
	synced        int           // the first WAIT's answer
	lockWait      time.Duration // when client-1 had it
	granted       bool          // client-1 granted before +switch-master
	grant         time.Duration
	unlockSent    time.Duration // handleNoSync's unlock; 0 if none
	unlockSynced  int
	unlockWait    time.Duration
	switchAt      time.Duration
	keyOnPromoted bool // redis-2 holds the lock key at +switch-master
	secondGranted bool // client-2 granted, starting just after the switch
	secondTook    time.Duration
	violations    int
}

// simWaitStory runs the story on the simulator: Redisson 4.7.0 with the
// watchdog's lease, on sentinelScenario's group. A held stream is
// a partition of redis-2 from 0 until the crash (the simulator has no
// one-way link cut; see DIFFERENCES.md 14). redis-1 crashes when the real
// master was killed; client-2 starts when the real second client sent its
// lock, or just after the simulated +switch-master if that is later (it
// must ask the new master, as the real one did).
func simWaitStory(t *testing.T, held bool, real realWaitStory) simWaitOutcome {
	t.Helper()
	kill := real.kill.Round(time.Millisecond)
	scenario := func(second time.Duration) *sim.Scenario {
		sc := sentinelScenario(t)
		sc.Clients, sc.Rounds, sc.Stagger = 2, 1, sim.Duration(second)
		sc.TTL, sc.Work = sim.Duration(redissonLease), sim.Duration(redissonLease)
		sc.Duration = sim.Duration(second + 2*time.Second)
		simredis.Client.Set(sc, simredis.ClientRedisson)
		simredis.Watchdog.Set(sc, true)
		sc.Faults = []sim.Fault{{At: sim.Duration(kill), Crash: "redis-1"}}
		if held {
			sc.Faults = append([]sim.Fault{{Partition: [][]string{{"redis-2"}}, For: sim.Duration(kill)}}, sc.Faults...)
		}
		require.NoError(t, sc.Validate())
		return sc
	}
	// First run: client-2 starts after the end, to find the switch.
	first := readWaitStory(t, scenario(kill+30*time.Second))
	require.NotZero(t, first.switchAt, "the simulator switched master")
	second := max(real.secondAt.Round(time.Millisecond), first.switchAt+time.Millisecond)
	out := readWaitStory(t, scenario(second))
	require.Equal(t, first.switchAt, out.switchAt, "client-2 starting later changes nothing before it starts")
	return out
}

// readWaitStory runs sc and reads the story off its trace: WAIT's
// answers are the client's REPLICAS receipts, a 0 being the one a
// "nosync" trace (NoSyncedSlavesException) follows at the same instant.
func readWaitStory(t *testing.T, sc *sim.Scenario) simWaitOutcome {
	t.Helper()
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	var out simWaitOutcome
	var waits []time.Duration
	var noSyncs []time.Duration
	secondStart := time.Duration(-1)
	for _, e := range rec.Trace() {
		switch {
		case e.Op == simredis.OpSwitchMaster.String() && e.Kind.String() == "sentinelEvent" && out.switchAt == 0:
			out.switchAt = e.At
		case e.Node == "client-1" && e.Kind == sim.TraceRecv && e.Op == simredis.OpReplicas.String():
			waits = append(waits, e.At)
		case e.Node == "client-1" && e.Kind.String() == "nosync":
			noSyncs = append(noSyncs, e.At)
		case e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == simredis.OpUnlock.String() && out.unlockSent == 0:
			out.unlockSent = e.At
		case e.Node == "client-1" && e.Kind == sim.TraceGrant && (out.switchAt == 0 || e.At < out.switchAt) && !out.granted:
			out.granted, out.grant = true, e.At
		case e.Node == "client-2" && e.Kind == sim.TraceStart:
			secondStart = e.At
		case e.Node == "client-2" && e.Kind == sim.TraceGrant && !out.secondGranted:
			out.secondGranted, out.secondTook = true, e.At-secondStart
		}
	}
	answer := func(at time.Duration) int {
		for _, n := range noSyncs {
			if n == at {
				return 0
			}
		}
		return 1 // what the client asked for: one replica
	}
	require.NotEmpty(t, waits, "the simulated lock went with WAIT")
	out.lockWait, out.synced = waits[0], answer(waits[0])
	if out.unlockSent != 0 {
		for _, w := range waits {
			if w > out.unlockSent {
				out.unlockWait, out.unlockSynced = w, answer(w)
				break
			}
		}
	}
	if out.switchAt != 0 {
		out.keyOnPromoted = holdsLockKey(t, rec, out.switchAt, "redis-2")
	}
	out.violations = rec.Summary().Violations
	return out
}

// holdsLockKey says whether server holds a live lock key at instant at.
func holdsLockKey(t *testing.T, rec *sim.Recording, at time.Duration, server string) bool {
	t.Helper()
	snap := rec.At(at)
	v := simredis.ViewOf(snap)
	require.NotNil(t, v)
	for _, s := range v.Servers {
		if snap.Nodes[s.Node].Name == server {
			for _, k := range s.Keys {
				if !k.Expired {
					return true
				}
			}
		}
	}
	return false
}
