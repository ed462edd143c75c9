package conformance

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	simredis "github.com/lockscope/lockscope/sim/redis"
)

// The Sentinel group the test starts itself (run.sh keeps the ports free):
// a master, its replica and three Sentinels.
const (
	sentinelMasterPort  = 26386
	sentinelReplicaPort = 26387
	sentinelFirstPort   = 26388 // 26388, 26389, 26390
	sentinelDownAfter   = time.Second
)

// sentinelGroup is a running master, replica (replicating through a proxy
// that can hold the stream back) and three Sentinels monitoring them.
type sentinelGroup struct {
	master, replica *process
	mc, rc          *redis.Client
	stream          *proxy
	sentinels       []*redis.Client
}

// startSentinelGroup starts the group and waits until every Sentinel knows
// the replica and both other Sentinels. down-after-milliseconds is 1000;
// failover-timeout is 60000 rather than the default 180000 (it only paces
// a second attempt after a split vote; shorter, the Sentinels would
// "+fix-slave-config" the replica, which replicates through the proxy,
// within the test).
func startSentinelGroup(t *testing.T, ctx context.Context) *sentinelGroup {
	t.Helper()
	srv := need(t, "LOCKSCOPE_REDIS_SERVER")
	bin := os.Getenv("LOCKSCOPE_REDIS_SENTINEL")
	if bin == "" {
		t.Skip("redis-sentinel is not installed (Debian's redis-sentinel package): no Sentinel conformance")
	}
	dir := t.TempDir()
	g := &sentinelGroup{}
	port := func(p int) string { return fmt.Sprint(p) }
	addr := func(p int) string { return fmt.Sprintf("127.0.0.1:%d", p) }
	g.master = startProcess(t, "sentinel-master", srv, "--port", port(sentinelMasterPort), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no", "--repl-diskless-sync-delay", "0")
	g.replica = startProcess(t, "sentinel-replica", srv, "--port", port(sentinelReplicaPort), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no")
	g.mc, g.rc = newRedisClient(addr(sentinelMasterPort)), newRedisClient(addr(sentinelReplicaPort))
	t.Cleanup(func() { g.mc.Close(); g.rc.Close() })
	for _, c := range []*redis.Client{g.mc, g.rc} {
		require.NoError(t, waitFor(10*time.Second, "redis up", func() bool { return c.Ping(ctx).Err() == nil }))
	}
	g.stream = attachReplica(t, ctx, g.mc, g.rc, addr(sentinelMasterPort))
	for i := 0; i < 3; i++ {
		p := sentinelFirstPort + i
		conf := filepath.Join(dir, fmt.Sprintf("sentinel-%d.conf", p))
		require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf(
			"port %d\nbind 127.0.0.1\ndaemonize no\ndir %s\n"+
				"sentinel monitor mymaster 127.0.0.1 %d 2\n"+
				"sentinel down-after-milliseconds mymaster %d\n"+
				"sentinel failover-timeout mymaster 60000\n",
			p, dir, sentinelMasterPort, sentinelDownAfter.Milliseconds())), 0o644))
		startProcess(t, fmt.Sprintf("sentinel-%d", p), bin, conf)
		c := redis.NewClient(&redis.Options{Addr: addr(p)})
		t.Cleanup(func() { c.Close() })
		g.sentinels = append(g.sentinels, c)
	}
	for _, c := range g.sentinels {
		require.NoError(t, waitFor(30*time.Second, "sentinel sees its peers and the replica", func() bool {
			peers, err := c.Do(ctx, "SENTINEL", "SENTINELS", "mymaster").Slice()
			if err != nil || len(peers) != 2 {
				return false
			}
			reps, err := c.Do(ctx, "SENTINEL", "REPLICAS", "mymaster").Slice()
			return err == nil && len(reps) == 1
		}))
	}
	return g
}

// switchMaster subscribes to +switch-master on every Sentinel and returns
// a channel that gets the first one's arrival time.
func (g *sentinelGroup) switchMaster(t *testing.T, ctx context.Context) <-chan time.Time {
	t.Helper()
	out := make(chan time.Time, 1)
	for _, c := range g.sentinels {
		sub := c.Subscribe(ctx, "+switch-master")
		_, err := sub.Receive(ctx) // the subscription's confirmation
		require.NoError(t, err)
		t.Cleanup(func() { sub.Close() })
		go func() {
			if _, err := sub.ReceiveMessage(ctx); err == nil {
				select {
				case out <- time.Now():
				default:
				}
			}
		}()
	}
	return out
}

// sentinelScenario is the real group's settings on the simulator: redis-1
// and its replica redis-2, three Sentinels, downAfter 1 s, latency 0.1 ms.
func sentinelScenario(t *testing.T) *sim.Scenario {
	t.Helper()
	sc := redisScenario(t, true)
	sc.Latency = sim.Duration(100 * time.Microsecond)
	simredis.Sentinels.Set(sc, 3)
	simredis.DownAfter.Set(sc, sim.Duration(sentinelDownAfter))
	return sc
}

// simSwitchMaster is the simulator's instant from the fault to the first
// +switch-master, under the same settings (sentinelScenario), the fault
// at 5 s.
func simSwitchMaster(t *testing.T, fault sim.Fault) time.Duration {
	t.Helper()
	sc := sentinelScenario(t)
	sc.Clients, sc.Duration = 1, sim.Duration(30*time.Second)
	fault.At = sim.Duration(5 * time.Second)
	sc.Faults = []sim.Fault{fault}
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	for _, e := range rec.Trace() {
		if e.Op == simredis.OpSwitchMaster.String() && e.Kind.String() == "sentinelEvent" {
			return e.At - fault.At.D()
		}
	}
	t.Fatalf("the simulator never switched master")
	return 0
}

// sentinelTolerance is how far the real and simulated times from the fault
// to +switch-master may differ: both have a PING phase of up to 1 s (the
// last PONG before the fault), sentinelTimer's 10-19 Hz ticks and the
// INFO (every second during the failover) that confirms the promotion.
const sentinelTolerance = 1500 * time.Millisecond

// TestSentinelFailover: from SIGSTOP and from SIGKILL of the master to the
// replica's promotion (+switch-master), real redis-sentinel 7.0 against
// the simulator's Sentinels under the same settings; and the lock's fate
// with the plain client: a SET NX PX the master acknowledged but the
// replica never got is gone after the failover, and a second SET NX is
// granted on the new master. Redisson's lock with WAIT on the same group
// is TestSentinelRedissonWait's (sentinel_wait_test.go).
func TestSentinelFailover(t *testing.T) {
	tests := []struct {
		name  string
		fault func(g *sentinelGroup) error
		sim   sim.Fault
	}{
		{"SIGSTOP", func(g *sentinelGroup) error { return g.master.freeze() }, sim.Fault{Pause: "redis-1", For: sim.Duration(20 * time.Second)}},
		{"SIGKILL", func(g *sentinelGroup) error { g.master.kill(); return nil }, sim.Fault{Crash: "redis-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := ctxFor(t, 50*time.Second)
			g := startSentinelGroup(t, ctx)
			t.Cleanup(func() { _ = g.master.thaw() })
			switched := g.switchMaster(t, ctx)
			key := uniqueKey(t)
			// The write the master acknowledges and the replica never gets.
			g.stream.hold()
			defer g.stream.release()
			require.NoError(t, g.mc.SetArgs(ctx, key, "client-1", redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Err())
			at := time.Now()
			require.NoError(t, tt.fault(g))
			var real time.Duration
			select {
			case got := <-switched:
				real = got.Sub(at)
			case <-ctx.Done():
				t.Fatalf("no +switch-master")
			}
			simulated := simSwitchMaster(t, tt.sim)
			t.Logf("fault to +switch-master: real %v, simulator %v (down-after %v)", real, simulated, sentinelDownAfter)
			assert.Greater(t, real, sentinelDownAfter, "the real Sentinels wait down-after-milliseconds")
			assert.InDelta(t, real.Seconds(), simulated.Seconds(), sentinelTolerance.Seconds(), "real vs simulator")

			// The lock's fate: the promoted replica never had the key.
			require.NoError(t, waitFor(5*time.Second, "the replica promoted", func() bool {
				info, err := g.rc.Info(ctx, "replication").Result()
				return err == nil && strings.Contains(info, "role:master")
			}))
			n, err := g.rc.Exists(ctx, key).Result()
			require.NoError(t, err)
			assert.Zero(t, n, "the acknowledged lock key is lost with the failover")
			ok, err := g.rc.SetArgs(ctx, key, "client-2", redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Result()
			require.NoError(t, err)
			assert.Equal(t, "OK", ok, "a second client's SET NX is granted on the new master")
			host, port, _ := net.SplitHostPort(fmt.Sprintf("127.0.0.1:%d", sentinelReplicaPort))
			addr, err := g.sentinels[0].Do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster").StringSlice()
			require.NoError(t, err)
			assert.Equal(t, []string{host, port}, addr, "the Sentinels name the replica the master")
		})
	}
}
