package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// etcdStep is one request of an etcd plan. Revisions in answers are
// relative to the revision before the plan; keys are named by the client
// whose lease they carry, since lease ids differ between the two servers.
type etcdStep struct {
	at     time.Duration
	client int
	op     string // grant, lock, last, watch, herd, write, keepalive, delete, revoke
	ttl    time.Duration
	target int // watch: the client whose key to watch
}

var etcdNames = []string{"A", "B", "C", "H"}

// etcdPlan is a concurrency.Mutex contest between A, B and C, with H
// watching the whole prefix (the herd). A's lease is the minimum and is
// never kept alive: it expires while A holds the lock.
func etcdPlan() []etcdStep {
	ms := time.Millisecond
	return []etcdStep{
		{at: 100 * ms, client: 0, op: "grant", ttl: time.Second}, // raised to the 2 s minimum
		{at: 110 * ms, client: 1, op: "grant", ttl: 10 * time.Second},
		{at: 120 * ms, client: 2, op: "grant", ttl: 10 * time.Second},
		{at: 300 * ms, client: 0, op: "lock"},
		{at: 400 * ms, client: 1, op: "lock"},
		{at: 500 * ms, client: 2, op: "lock"},
		{at: 550 * ms, client: 2, op: "lock"}, // again: the key exists, the Else branch
		{at: 600 * ms, client: 1, op: "last"},
		{at: 650 * ms, client: 2, op: "last"},
		{at: 700 * ms, client: 1, op: "watch", target: 0},
		{at: 750 * ms, client: 2, op: "watch", target: 1},
		{at: 760 * ms, client: 3, op: "herd"},
		{at: 800 * ms, client: 0, op: "write"},
		{at: 900 * ms, client: 1, op: "keepalive"},
		// A's lease runs out at about 2.1 s: its key goes, B wakes.
		{at: 3500 * ms, client: 0, op: "write"},
		{at: 3550 * ms, client: 0, op: "keepalive"},
		{at: 3600 * ms, client: 1, op: "last"},
		{at: 3700 * ms, client: 1, op: "write"},
		{at: 3800 * ms, client: 1, op: "delete"},
		{at: 3900 * ms, client: 2, op: "last"},
		{at: 4000 * ms, client: 2, op: "revoke"},
		{at: 4100 * ms, client: 1, op: "revoke"},
	}
}

// etcdSide is what one side (real or simulated) reports in the common form.
type etcdSide struct {
	answers []string
	events  [][]string // per client: "DELETE B @+7"
	grantAt time.Duration
	wakeAt  time.Duration // when B heard of A's key's delete
}

// etcdNamer turns keys and revisions into the common form.
type etcdNamer struct {
	base int64
	keys map[string]string // key -> client name
}

func (n etcdNamer) key(k string) string {
	if name, ok := n.keys[k]; ok {
		return name
	}
	if k == "" {
		return "none"
	}
	return k
}

func (n etcdNamer) rev(r int64) string { return fmt.Sprintf("+%d", r-n.base) }

// TestEtcdLeaseAndMutex compares lease grants (and the minimum TTL),
// keepalives, expiry deleting keys, the Mutex key layout, the create
// revisions and their order, waitDeletes' wake-ups (one waiter per delete,
// or every herd watcher), and the IsOwner-guarded write refused after the
// lease expired.
func TestEtcdLeaseAndMutex(t *testing.T) {
	addr := need(t, "LOCKSCOPE_ETCD")
	steps := etcdPlan()
	real := runEtcdReal(t, addr, steps)
	simulated := runEtcdSim(t, steps)
	for k, st := range steps {
		t.Logf("step %2d %-9s %s: real %-28q sim %q", k, st.op, etcdNames[st.client], real.answers[k], simulated.answers[k])
	}
	want := []string{
		"TTL 2s", "TTL 10s", "TTL 10s",
		"put own=+1 owner=A@+1", "put own=+2 owner=A@+1", "put own=+3 owner=A@+1", "get own=+3 owner=A@+1",
		"last A@+1 rev=+3", "last B@+2 rev=+3",
		"watching", "watching", "watching",
		"written rev=+4", "TTL 10s",
		"refused rev=+5", "TTL 0",
		"last none rev=+5", "written rev=+6", "deleted 1 rev=+7", "last none rev=+7",
		"revoked", "revoked",
	}
	assert.Equal(t, want, real.answers, "the real server's answers")
	assert.Equal(t, real.answers, simulated.answers, "simulator vs real")
	wantEvents := [][]string{nil, {"DELETE A @+5"}, {"DELETE B @+7"}, {"DELETE A @+5", "DELETE B @+7", "DELETE C @+8"}}
	assert.Equal(t, wantEvents, real.events, "the real watch events")
	assert.Equal(t, real.events, simulated.events, "simulator vs real watch events")

	// A's lease (2 s) is revoked by the leader's lessor, which looks for
	// expired leases every 500 ms: B hears of it 2 to 2.5 s after the grant.
	ttl := 2 * time.Second
	for side, got := range map[string]etcdSide{"real": real, "simulator": simulated} {
		wait := got.wakeAt - got.grantAt
		t.Logf("%s: A's key deleted %v after its lease was granted", side, wait.Round(time.Millisecond))
		// The grant is timed when its answer arrives, a round trip after the
		// server started the lease: 50 ms of slack below the TTL.
		assert.GreaterOrEqual(t, wait, ttl-50*time.Millisecond, "%s: not before the TTL", side)
		assert.LessOrEqual(t, wait, ttl+500*time.Millisecond+300*time.Millisecond, "%s: by the lessor's next check", side)
	}
}

// runEtcdReal plays the plan on the real server with clientv3, sending
// exactly the requests concurrency.Mutex sends (tryAcquire's Txn,
// waitDeletes' Get and Watch, IsOwner's compare).
func runEtcdReal(t *testing.T, addr string, steps []etcdStep) etcdSide {
	t.Helper()
	ctx := ctxFor(t, time.Minute)
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { cli.Close() })
	pfx := fmt.Sprintf("/lockscope-%d%s", time.Now().UnixNano(), etcd.Prefix)
	storage := strings.TrimSuffix(pfx, etcd.Prefix) + etcd.StorageKey
	start, err := cli.Get(ctx, "lockscope-revision")
	require.NoError(t, err)
	n := etcdNamer{base: start.Header.Revision, keys: map[string]string{}}

	leases := make([]clientv3.LeaseID, len(etcdNames))
	keys := make([]string, len(etcdNames))
	myRev := make([]int64, len(etcdNames))
	lastRev := make([]int64, len(etcdNames))
	out := etcdSide{events: make([][]string, len(etcdNames))}
	var mu sync.Mutex
	t0 := time.Now()
	watch := func(client int, key string, rev int64, opts ...clientv3.OpOption) {
		wctx, cancel := context.WithCancel(ctx)
		t.Cleanup(cancel)
		wch := cli.Watch(wctx, key, append(opts, clientv3.WithRev(rev))...)
		go func() {
			for resp := range wch {
				for _, ev := range resp.Events {
					at := time.Since(t0)
					mu.Lock()
					if ev.Type == mvccpb.DELETE {
						name := n.key(strings.TrimPrefix(string(ev.Kv.Key), strings.TrimSuffix(pfx, etcd.Prefix)))
						out.events[client] = append(out.events[client], fmt.Sprintf("DELETE %s @%s", name, n.rev(ev.Kv.ModRevision)))
						if client == 1 && name == "A" {
							out.wakeAt = at
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, st := range steps {
		time.Sleep(time.Until(t0.Add(st.at)))
		c := st.client
		var a string
		switch st.op {
		case "grant":
			resp, err := cli.Grant(ctx, int64(st.ttl/time.Second))
			require.NoError(t, err)
			if c == 0 {
				out.grantAt = time.Since(t0)
			}
			leases[c] = resp.ID
			// concurrency.NewMutex(s, "/locks/mylock").Lock: the key is the
			// prefix and the session's lease id in hex.
			keys[c] = fmt.Sprintf("%s%x", pfx, resp.ID)
			mu.Lock()
			n.keys[etcd.Prefix+fmt.Sprintf("%x", resp.ID)] = etcdNames[c]
			mu.Unlock()
			a = fmt.Sprintf("TTL %v", time.Duration(resp.TTL)*time.Second)
		case "lock":
			cmp := clientv3.Compare(clientv3.CreateRevision(keys[c]), "=", 0)
			put := clientv3.OpPut(keys[c], "", clientv3.WithLease(leases[c]))
			get := clientv3.OpGet(keys[c])
			owner := clientv3.OpGet(pfx, clientv3.WithFirstCreate()...)
			resp, err := cli.Txn(ctx).If(cmp).Then(put, owner).Else(get, owner).Commit()
			require.NoError(t, err)
			how, rev := "put", resp.Header.Revision
			if !resp.Succeeded {
				how, rev = "get", resp.Responses[0].GetResponseRange().Kvs[0].CreateRevision
			}
			myRev[c] = rev
			o := resp.Responses[1].GetResponseRange().Kvs[0]
			a = fmt.Sprintf("%s own=%s owner=%s@%s", how, n.rev(rev), n.key(etcd.Prefix+strings.TrimPrefix(string(o.Key), pfx)), n.rev(o.CreateRevision))
		case "last":
			resp, err := cli.Get(ctx, pfx, append(clientv3.WithLastCreate(), clientv3.WithMaxCreateRev(myRev[c]-1))...)
			require.NoError(t, err)
			lastRev[c] = resp.Header.Revision
			name := "none"
			if len(resp.Kvs) > 0 {
				kv := resp.Kvs[0]
				name = n.key(etcd.Prefix+strings.TrimPrefix(string(kv.Key), pfx)) + "@" + n.rev(kv.CreateRevision)
			}
			a = fmt.Sprintf("last %s rev=%s", name, n.rev(resp.Header.Revision))
		case "watch":
			watch(c, keys[st.target], lastRev[c]+1)
			a = "watching"
		case "herd":
			watch(c, pfx, n.base+4, clientv3.WithPrefix())
			a = "watching"
		case "write":
			resp, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(keys[c]), "=", myRev[c])).
				Then(clientv3.OpPut(storage, "data")).Commit()
			require.NoError(t, err)
			a = fmt.Sprintf("refused rev=%s", n.rev(resp.Header.Revision))
			if resp.Succeeded {
				a = fmt.Sprintf("written rev=%s", n.rev(resp.Header.Revision))
			}
		case "keepalive":
			resp, err := cli.KeepAliveOnce(ctx, leases[c])
			switch {
			case errors.Is(err, rpctypes.ErrLeaseNotFound):
				a = "TTL 0"
			case err != nil:
				a = "error " + err.Error()
			default:
				a = fmt.Sprintf("TTL %v", time.Duration(resp.TTL)*time.Second)
			}
		case "delete":
			resp, err := cli.Delete(ctx, keys[c])
			require.NoError(t, err)
			a = fmt.Sprintf("deleted %d rev=%s", resp.Deleted, n.rev(resp.Header.Revision))
		case "revoke":
			_, err := cli.Revoke(ctx, leases[c])
			require.NoError(t, err)
			a = "revoked"
		}
		out.answers = append(out.answers, a)
	}
	time.Sleep(300 * time.Millisecond) // the last events
	mu.Lock()
	defer mu.Unlock()
	return out
}

// runEtcdSim plays the plan on one simulated etcd member (the real one is
// a single member too), with scripted clients speaking its wire protocol.
func runEtcdSim(t *testing.T, steps []etcdStep) etcdSide {
	t.Helper()
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	etcd.Nodes.Set(sc, 1)
	sc.Latency, sc.Jitter, sc.Stagger = sim.Duration(time.Millisecond), 0, 0
	sc.Duration = sim.Duration(6 * time.Second)
	const base = 1 // a fresh member's revision

	scripts := make([]*sim.ScriptClient, len(etcdNames))
	for i := range scripts {
		scripts[i] = &sim.ScriptClient{}
	}
	index := make([][2]int, len(steps))
	// The scripts learn their lease and revisions from earlier answers.
	leaseOf := func(r []sim.ScriptReply) int64 {
		for _, m := range r {
			if m.Msg.Op == etcd.OpGrantResp {
				return etcd.LeaseCallOf(&m.Msg).Lease
			}
		}
		return 0
	}
	keyOf := func(lease int64) string { return fmt.Sprintf("%s%x", etcd.Prefix, lease) }
	myRevOf := func(r []sim.ScriptReply) int64 {
		for _, m := range r {
			if r := etcd.TxnRespOf(&m.Msg); m.Msg.Op == etcd.OpTxnResp && r.Kind == etcd.TxnLock {
				return r.Rev
			}
		}
		return 0
	}
	lastRevOf := func(r []sim.ScriptReply) int64 {
		var rev int64
		for _, m := range r {
			if m.Msg.Op == etcd.OpRangeResp {
				rev = etcd.RangeRespOf(&m.Msg).Rev
			}
		}
		return rev
	}
	for k, st := range steps {
		c, st := st.client, st
		var build func(r []sim.ScriptReply) sim.Msg
		switch st.op {
		case "grant":
			build = func([]sim.ScriptReply) sim.Msg { return etcd.LeaseCall{Op: etcd.OpGrant, TTL: st.ttl}.Msg() }
		case "lock":
			build = func(r []sim.ScriptReply) sim.Msg {
				l := leaseOf(r)
				return etcd.Txn{Kind: etcd.TxnLock, Key: keyOf(l), Lease: l}.Msg()
			}
		case "last":
			build = func(r []sim.ScriptReply) sim.Msg {
				return etcd.Range{Kind: etcd.RangeLast, Key: etcd.Prefix, MaxRev: myRevOf(r) - 1}.Msg()
			}
		case "watch":
			build = func(r []sim.ScriptReply) sim.Msg {
				return etcd.Watch{Key: keyOf(leaseOf(scripts[st.target].Replies)), Start: lastRevOf(r) + 1}.Msg()
			}
		case "herd":
			build = func([]sim.ScriptReply) sim.Msg {
				return etcd.Watch{Key: etcd.Prefix, Prefix: true, Start: base + 4}.Msg()
			}
		case "write":
			build = func(r []sim.ScriptReply) sim.Msg {
				return etcd.Txn{Kind: etcd.TxnWrite, Key: keyOf(leaseOf(r)), Rev: myRevOf(r)}.Msg()
			}
		case "keepalive":
			build = func(r []sim.ScriptReply) sim.Msg {
				return etcd.LeaseCall{Op: etcd.OpKeepAlive, Lease: leaseOf(r)}.Msg()
			}
		case "delete":
			build = func(r []sim.ScriptReply) sim.Msg { return sim.Msg{Op: etcd.OpDelete, Key: keyOf(leaseOf(r))} }
		case "revoke":
			build = func(r []sim.ScriptReply) sim.Msg { return etcd.LeaseCall{Op: etcd.OpRevoke, Lease: leaseOf(r)}.Msg() }
		}
		index[k] = [2]int{c, len(scripts[c].Steps)}
		scripts[c].Steps = append(scripts[c].Steps, sim.ScriptStep{At: st.at, To: "etcd-1", Make: build})
	}
	s, err := sim.NewScripted(sc, scripts...)
	require.NoError(t, err)
	runSafely(t, s)

	n := etcdNamer{base: base, keys: map[string]string{}}
	for i, sc := range scripts {
		if l := leaseOf(sc.Replies); l != 0 {
			n.keys[keyOf(l)] = etcdNames[i]
		}
	}
	out := etcdSide{events: make([][]string, len(etcdNames))}
	for k, st := range steps {
		sc := scripts[index[k][0]]
		r, ok := sc.Reply(index[k][1])
		if st.op == "keepalive" {
			// A keepalive stream answer names the lease, not the request.
			r, ok = firstAfter(sc.Replies, etcd.OpKeepAliveResp, st.at)
		}
		m := r.Msg
		var a string
		switch {
		case !ok:
			a = "-"
		case m.Op == etcd.OpError:
			a = "error " + string(etcd.ErrorOf(&m))
		case st.op == "grant":
			a = fmt.Sprintf("TTL %v", etcd.LeaseCallOf(&m).TTL)
			if st.client == 0 {
				out.grantAt = r.At
			}
		case st.op == "lock":
			r := etcd.TxnRespOf(&m)
			how := "get" // the key was there: the Txn's else branch
			if r.Succeeded {
				how = "put"
			}
			a = fmt.Sprintf("%s own=%s owner=%s@%s", how, n.rev(r.Rev), n.key(r.OwnerKey), n.rev(r.OwnerRev))
		case st.op == "last":
			r := etcd.RangeRespOf(&m)
			name := "none"
			if r.Key != "" {
				name = n.key(r.Key) + "@" + n.rev(r.CreateRev)
			}
			a = fmt.Sprintf("last %s rev=%s", name, n.rev(r.Rev))
		case st.op == "watch" || st.op == "herd":
			a = "watching"
		case st.op == "write":
			r := etcd.TxnRespOf(&m)
			a = fmt.Sprintf("refused rev=%s", n.rev(r.Rev))
			if r.Succeeded {
				a = fmt.Sprintf("written rev=%s", n.rev(r.Rev))
			}
		case st.op == "keepalive" && etcd.LeaseCallOf(&m).TTL <= 0:
			a = "TTL 0" // clientv3: ErrLeaseNotFound
		case st.op == "keepalive":
			a = fmt.Sprintf("TTL %v", etcd.LeaseCallOf(&m).TTL)
		case st.op == "delete":
			r := etcd.DeleteRespOf(&m)
			a = fmt.Sprintf("deleted %d rev=%s", r.Deleted, n.rev(r.Rev))
		case st.op == "revoke":
			a = "revoked"
		}
		out.answers = append(out.answers, a)
	}
	for i, sc := range scripts {
		for _, r := range sc.Replies {
			if r.Msg.Op == etcd.OpEventDelete {
				_, ev := etcd.WatchEventOf(&r.Msg)
				name := n.key(ev.Key)
				out.events[i] = append(out.events[i], fmt.Sprintf("DELETE %s @%s", name, n.rev(ev.Rev)))
				if i == 1 && name == "A" {
					out.wakeAt = r.At
				}
			}
		}
	}
	return out
}

// firstAfter is the first reply of kind op that arrived at or after at.
func firstAfter(replies []sim.ScriptReply, op sim.Op, at time.Duration) (sim.ScriptReply, bool) {
	for _, r := range replies {
		if r.Msg.Op == op && r.At >= at {
			return r, true
		}
	}
	return sim.ScriptReply{}, false
}

// TestEtcdMutexTakeover runs concurrency.Mutex itself: A locks, then its
// process dies (Session.Orphan: the keepalives stop, the lease is not
// revoked); B, blocked in Lock, gets the lock once A's lease expires. The
// simulated etcd clients run the same story with a crash of client-1. The
// take-over comes between 2/3 of the TTL (the last keepalive went out a
// third of the TTL before the death) and the TTL plus the lessor's 500 ms.
func TestEtcdMutexTakeover(t *testing.T) {
	addr := need(t, "LOCKSCOPE_ETCD")
	ctx := ctxFor(t, time.Minute)
	const ttl = 2 * time.Second
	lo, hi := ttl*2/3-100*time.Millisecond, ttl+500*time.Millisecond+300*time.Millisecond

	newClient := func() *clientv3.Client {
		cli, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		require.NoError(t, err)
		t.Cleanup(func() { cli.Close() })
		return cli
	}
	name := fmt.Sprintf("/lockscope-%d/locks/mylock", time.Now().UnixNano())
	sa, err := concurrency.NewSession(newClient(), concurrency.WithTTL(int(ttl/time.Second)))
	require.NoError(t, err)
	ma := concurrency.NewMutex(sa, name)
	require.NoError(t, ma.Lock(ctx))
	assert.Equal(t, fmt.Sprintf("%s/%x", name, sa.Lease()), ma.Key(), "the Mutex key is the prefix and the lease id in hex")

	sb, err := concurrency.NewSession(newClient(), concurrency.WithTTL(10))
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	mb := concurrency.NewMutex(sb, name)
	got := make(chan time.Time, 1)
	go func() {
		if mb.Lock(ctx) == nil {
			got <- time.Now()
		}
	}()
	time.Sleep(1100 * time.Millisecond) // B is waiting; A has kept its lease alive
	died := time.Now()
	sa.Orphan()
	var took time.Duration
	select {
	case at := <-got:
		took = at.Sub(died)
	case <-time.After(hi + 2*time.Second):
		t.Fatal("B never got the lock after A's lease expired")
	}
	bKey, err := sb.Client().Get(ctx, mb.Key())
	require.NoError(t, err)
	require.Len(t, bKey.Kvs, 1)
	assert.Equal(t, ma.Header().Revision+1, bKey.Kvs[0].CreateRevision, "B's key was created right after A's")
	owner, err := sb.Client().Txn(ctx).If(mb.IsOwner()).Then(clientv3.OpPut(name+"-storage", "b")).Commit()
	require.NoError(t, err)
	assert.True(t, owner.Succeeded, "B's IsOwner-guarded write goes through")
	stale, err := sb.Client().Txn(ctx).If(ma.IsOwner()).Then(clientv3.OpPut(name+"-storage", "a")).Commit()
	require.NoError(t, err)
	assert.False(t, stale.Succeeded, "A's IsOwner-guarded write is refused after its lease expired")

	// The simulator: client-1 takes the lock at once, client-2 asks at
	// 200 ms, client-1 crashes at 1.3 s.
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	etcd.Nodes.Set(sc, 1)
	sc.Clients, sc.Stagger = 2, sim.Duration(200*time.Millisecond)
	sc.TTL, sc.Work, sc.Fencing = sim.Duration(ttl), sim.Duration(20*time.Second), true
	sc.Latency, sc.Jitter = sim.Duration(time.Millisecond), 0
	sc.Duration = sim.Duration(8 * time.Second)
	crash := 1300 * time.Millisecond
	sc.Faults = []sim.Fault{{At: sim.Duration(crash), Crash: "client-1"}}
	s, err := sim.New(sc)
	require.NoError(t, err)
	runSafely(t, s)
	sum := s.Check.Summary(s.End())
	require.Len(t, sum.Grants, 2)
	assert.Equal(t, "client-2", sum.Grants[1].Client)
	simTook := time.Duration(sum.Grants[1].AtMs*float64(time.Millisecond)) - crash
	assert.Equal(t, sum.Grants[0].Token+1, sum.Grants[1].Token, "client-2's create revision is right after client-1's")
	t.Logf("take-over after the holder died: real %v, simulator %v (TTL %v)", took.Round(time.Millisecond), simTook.Round(time.Millisecond), ttl)
	for side, d := range map[string]time.Duration{"real": took, "simulator": simTook} {
		assert.GreaterOrEqual(t, d, lo, "%s: not before the lease could have run out", side)
		assert.LessOrEqual(t, d, hi, "%s: by the lessor's next check after the TTL", side)
	}
}
