package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/kubernetes"
)

// client-go's leaderelection (k8s.io/client-go v0.37.2,
// tools/leaderelection/leaderelection.go) with resourcelock.LeaseLock on
// client-go's fake clientset, at short durations. What the source says,
// and what these tests hold the measurements to:
//
//   - NewLeaderElector refuses LeaseDuration <= RenewDeadline and
//     RenewDeadline <= JitterFactor (1.2) × RetryPeriod.
//   - The record stores LeaseDurationSeconds: int(LeaseDuration /
//     time.Second) (tryAcquireOrRenew), so 1.5 s is written, and obeyed,
//     as 1 s.
//   - A candidate tries every RetryPeriod jittered by JitterFactor
//     (acquire: wait.JitterUntilWithContext(..., RetryPeriod, 1.2, true):
//     RetryPeriod + [0, 1.2) × RetryPeriod after the last try ended).
//   - A candidate times a lease from when it last saw the record change
//     (observedTime, set by setObservedRecord when the raw record differs
//     from the last one it saw), not from the record's renewTime: it
//     takes over at its first try after observedTime +
//     LeaseDurationSeconds. The raw record is the LeaderElectionRecord
//     marshalled to JSON (LeaseLock.Get), whose renewTime is a
//     metav1.Time: RFC 3339, whole seconds (apimachinery
//     pkg/apis/meta/v1/time.go, MarshalJSON); renewals within one second
//     do not change it.
//   - The leader renews every RetryPeriod (renew: wait.UntilWithContext,
//     no jitter); each renewal is a PollUntilContextTimeout(RetryPeriod,
//     RenewDeadline, immediate): when no try has succeeded RenewDeadline
//     after its first, Run returns and OnStoppedLeading is called.
//   - With ReleaseOnCancel, a cancelled leader writes the record with an
//     empty holder and LeaseDurationSeconds 1 (tryRelease); a candidate
//     that sees an empty holder takes the lease at once.
//   - Create and Update go to the API server, which refuses a create of a
//     lease that exists (AlreadyExists) and an update whose
//     resourceVersion is not the stored one (Conflict).
const (
	k8sLeaseDuration = 1500 * time.Millisecond
	k8sRenewDeadline = time.Second
	k8sRetryPeriod   = 200 * time.Millisecond
	// k8sRecordLease is what the record says and candidates obey:
	// int(LeaseDuration / time.Second) seconds.
	k8sRecordLease = time.Duration(int(k8sLeaseDuration/time.Second)) * time.Second
	// k8sSlack is what goroutine scheduling may add to an instant on a
	// busy machine.
	k8sSlack = 60 * time.Millisecond
)

// k8sJitteredRetry is the longest wait between two tries of a candidate:
// RetryPeriod × (1 + JitterFactor).
var k8sJitteredRetry = time.Duration(float64(k8sRetryPeriod) * (1 + k8sJitterFactor))

// k8sJitterFactor is leaderelection.JitterFactor as a variable: 1.2 has no
// exact float64, so the product is no constant duration.
var k8sJitterFactor float64 = leaderelection.JitterFactor

// leaseCall is one request the API server answered.
type leaseCall struct {
	at     time.Time
	who    string
	verb   string // get, create, update
	holder string // the record's holder after the call (get: as read)
	raw    string // the record as client-go compares it (LeaseLock.Get)
	err    error
}

// leaseAPI is the API server's Lease storage on client-go's fake
// clientset: its testing.ObjectTracker keeps the objects and each
// candidate talks to it through a fake.Clientset of its own, so every
// request is logged with who sent it. The tracker neither sets
// resourceVersion on objects nor checks it on update (client-go
// testing/fixture.go, tracker.add replaces the stored object); the real
// API server does both (optimistic concurrency: a stale resourceVersion is
// a 409 Conflict), and leader election relies on it, so this storage adds
// them. It can also fail a candidate's updates (the give-up story) and
// hold the first two creates or updates until both arrived (a race).
type leaseAPI struct {
	mu      sync.Mutex
	tracker k8stesting.ObjectTracker
	rv      int64
	calls   []leaseCall
	failing map[string]bool
	race    string // "create" or "update": the first two are held until both came
	raced   int
	bothIn  chan struct{}
}

var leasesResource = coordinationv1.SchemeGroupVersion.WithResource("leases")

const (
	k8sLeaseNamespace = "default"
	k8sLeaseName      = "lockscope"
)

func newLeaseAPI() *leaseAPI {
	return &leaseAPI{tracker: fake.NewSimpleClientset().Tracker(), failing: map[string]bool{}, bothIn: make(chan struct{})}
}

// client is who's clientset.
func (a *leaseAPI) client(who string) *fake.Clientset {
	cs := &fake.Clientset{}
	cs.AddReactor("*", "leases", func(action k8stesting.Action) (bool, runtime.Object, error) {
		obj, err := a.serve(who, action)
		return true, obj, err
	})
	return cs
}

func (a *leaseAPI) fail(who string, on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failing[who] = on
}

func (a *leaseAPI) serve(who string, action k8stesting.Action) (runtime.Object, error) {
	verb := action.GetVerb()
	if verb == "create" || verb == "update" {
		a.holdForRace(verb)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var obj runtime.Object
	var err error
	switch verb {
	case "get":
		obj, err = a.tracker.Get(leasesResource, action.GetNamespace(), action.(k8stesting.GetAction).GetName())
	case "create", "update":
		lease := action.(k8stesting.CreateAction).GetObject().(*coordinationv1.Lease).DeepCopy()
		switch {
		case verb == "update" && a.failing[who]:
			err = apierrors.NewServiceUnavailable("lockscope: this candidate's updates fail")
		case verb == "update":
			var cur runtime.Object
			if cur, err = a.tracker.Get(leasesResource, lease.Namespace, lease.Name); err == nil &&
				cur.(*coordinationv1.Lease).ResourceVersion != lease.ResourceVersion {
				err = apierrors.NewConflict(leasesResource.GroupResource(), lease.Name,
					fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
			}
		}
		if err == nil {
			a.rv++
			lease.ResourceVersion = strconv.FormatInt(a.rv, 10)
			if verb == "create" {
				err = a.tracker.Create(leasesResource, lease, lease.Namespace)
			} else {
				err = a.tracker.Update(leasesResource, lease, lease.Namespace)
			}
			obj = lease
		}
	default:
		err = fmt.Errorf("lockscope: %s leases is not served", verb)
	}
	c := leaseCall{at: time.Now(), who: who, verb: verb, err: err}
	if lease, ok := obj.(*coordinationv1.Lease); ok && err == nil {
		rec := resourcelock.LeaseSpecToLeaderElectionRecord(&lease.Spec)
		raw, _ := json.Marshal(*rec)
		c.holder, c.raw = rec.HolderIdentity, string(raw)
	}
	a.calls = append(a.calls, c)
	return obj, err
}

// holdForRace holds the first two calls of the raced verb until both came
// (2 s at most), so they cross as two candidates' requests can.
func (a *leaseAPI) holdForRace(verb string) {
	a.mu.Lock()
	if a.race != verb || a.raced >= 2 {
		a.mu.Unlock()
		return
	}
	a.raced++
	if a.raced == 2 {
		close(a.bothIn)
	}
	a.mu.Unlock()
	select {
	case <-a.bothIn:
	case <-time.After(2 * time.Second):
	}
}

// log is a copy of the calls so far.
func (a *leaseAPI) log() []leaseCall {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]leaseCall(nil), a.calls...)
}

// lastWrite is the instant of who's last successful create or update
// before t.
func lastWrite(calls []leaseCall, who string, before time.Time) time.Time {
	var at time.Time
	for _, c := range calls {
		if c.who == who && (c.verb == "create" || c.verb == "update") && c.err == nil && c.at.Before(before) {
			at = c.at
		}
	}
	return at
}

// firstWrite is the instant of who's first successful create or update:
// when it took the lease.
func firstWrite(calls []leaseCall, who string) time.Time {
	for _, c := range calls {
		if c.who == who && (c.verb == "create" || c.verb == "update") && c.err == nil {
			return c.at
		}
	}
	return time.Time{}
}

// lastChangeSeen is client-go's observedTime for who at t: the last of
// its gets, before t, whose raw record differed from the one it saw
// before (its own successful writes count as seen).
func lastChangeSeen(calls []leaseCall, who string, before time.Time) time.Time {
	var at time.Time
	var seen string
	for _, c := range calls {
		if c.who != who || c.err != nil || !c.at.Before(before) {
			continue
		}
		if c.verb != "get" {
			seen, at = c.raw, c.at
			continue
		}
		if c.raw != seen {
			seen, at = c.raw, c.at
		}
	}
	return at
}

// candidate is one leaderelection.LeaderElector and what its callbacks
// were told.
type candidate struct {
	name    string
	cancel  context.CancelFunc
	mu      sync.Mutex
	started time.Time // OnStartedLeading
	stopped time.Time // OnStoppedLeading (also called for one that never led)
	done    chan struct{}
}

func (c *candidate) times() (started, stopped time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started, c.stopped
}

// runCandidate starts who's LeaderElector on a LeaseLock in api with the
// short durations; releaseOnCancel is the config's ReleaseOnCancel.
func runCandidate(t *testing.T, api *leaseAPI, who string, releaseOnCancel bool) *candidate {
	t.Helper()
	c := &candidate{name: who, done: make(chan struct{})}
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: k8sLeaseNamespace, Name: k8sLeaseName},
		Client:     api.client(who).CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: who},
	}
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: lock, Name: who, ReleaseOnCancel: releaseOnCancel,
		LeaseDuration: k8sLeaseDuration, RenewDeadline: k8sRenewDeadline, RetryPeriod: k8sRetryPeriod,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				c.mu.Lock()
				c.started = time.Now()
				c.mu.Unlock()
			},
			OnStoppedLeading: func() {
				c.mu.Lock()
				c.stopped = time.Now()
				c.mu.Unlock()
			},
		},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	c.cancel = cancel
	go func() {
		defer close(c.done)
		le.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-c.done
	})
	return c
}

// waitCallback waits until c's OnStartedLeading (started) or
// OnStoppedLeading was called, at most d, and says when.
func waitCallback(t *testing.T, c *candidate, started bool, d time.Duration) time.Time {
	t.Helper()
	what := " stops leading"
	if started {
		what = " starts leading"
	}
	var at time.Time
	require.NoError(t, waitFor(d, c.name+what, func() bool {
		start, stop := c.times()
		at = stop
		if started {
			at = start
		}
		return !at.IsZero()
	}))
	return at
}

// k8sMeasured is what one side, client-go or the simulator, did in one
// story: the figures the comparison holds side by side.
type k8sMeasured struct {
	takeover   time.Duration // takeover: B's start after it last saw the record change
	sinceRenew time.Duration // takeover: B's start after A's last renewal
	giveUp     time.Duration // give-up: A's stop after its first failed renewal
	release    time.Duration // release: B's start after A's cancel
}

// TestKubernetesLeaderElection measures client-go's leader election with
// LeaseDuration 1.5 s, RenewDeadline 1 s and RetryPeriod 200 ms on the
// fake clientset: the takeover after the leader stops renewing, the
// leader giving up when its updates fail, the takeover after a release,
// and two candidates racing a create and an update; no server is needed.
// The simulated Kubernetes Lease (sim/kubernetes) plays the same stories
// with the same durations, and the instants are compared.
func TestKubernetesLeaderElection(t *testing.T) {
	t.Run("validation", func(t *testing.T) {
		api := newLeaseAPI()
		lock := &resourcelock.LeaseLock{LeaseMeta: metav1.ObjectMeta{Namespace: k8sLeaseNamespace, Name: k8sLeaseName},
			Client: api.client("A").CoordinationV1(), LockConfig: resourcelock.ResourceLockConfig{Identity: "A"}}
		cb := leaderelection.LeaderCallbacks{OnStartedLeading: func(context.Context) {}, OnStoppedLeading: func() {}}
		for _, c := range []struct {
			lease, renew, retry time.Duration
			ok                  bool
		}{
			{k8sLeaseDuration, k8sRenewDeadline, k8sRetryPeriod, true},
			{time.Second, time.Second, k8sRetryPeriod, false},                 // LeaseDuration must exceed RenewDeadline
			{k8sLeaseDuration, 240 * time.Millisecond, k8sRetryPeriod, false}, // RenewDeadline must exceed 1.2 × RetryPeriod
			{k8sLeaseDuration, 241 * time.Millisecond, k8sRetryPeriod, true},
		} {
			_, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{Lock: lock, Callbacks: cb,
				LeaseDuration: c.lease, RenewDeadline: c.renew, RetryPeriod: c.retry})
			assert.Equal(t, c.ok, err == nil, "client-go: lease %v renew %v retry %v: %v", c.lease, c.renew, c.retry, err)
			sc := k8sScenario(nil)
			sc.TTL = sim.Duration(c.lease)
			kubernetes.RenewDeadline.Set(sc, sim.Duration(c.renew))
			kubernetes.RetryPeriod.Set(sc, sim.Duration(c.retry))
			simErr := sc.Validate()
			assert.Equal(t, c.ok, simErr == nil, "simulator: lease %v renew %v retry %v: %v", c.lease, c.renew, c.retry, simErr)
		}
	})
	t.Run("takeover", func(t *testing.T) {
		t.Parallel()
		real, simulated := measureTakeover(t), simTakeover(t)
		t.Logf("B took over %v (client-go) and %v (simulator) after it last saw the record change; %v and %v after A's last renewal (record lease %v, jittered retry up to %v)",
			real.takeover.Round(time.Millisecond), simulated.takeover.Round(time.Millisecond),
			real.sinceRenew.Round(time.Millisecond), simulated.sinceRenew.Round(time.Millisecond), k8sRecordLease, k8sJitteredRetry)
		for side, m := range map[string]k8sMeasured{"client-go": real, "simulator": simulated} {
			assertTakeover(t, side, m)
		}
		// Each side's takeover falls at one draw of the jittered wait
		// into the window (1 s, 1 s + 440 ms]: they may differ by its
		// whole width.
		assert.InDelta(t, real.takeover.Seconds(), simulated.takeover.Seconds(), (k8sJitteredRetry + k8sSlack).Seconds(),
			"takeover after the last change seen: client-go vs simulator")
	})
	t.Run("give-up", func(t *testing.T) {
		t.Parallel()
		real, simulated := measureGiveUp(t), simGiveUp(t)
		t.Logf("A stopped leading %v (client-go) and %v (simulator) after its first failed renewal (RenewDeadline %v)",
			real.giveUp.Round(time.Millisecond), simulated.giveUp.Round(time.Millisecond), k8sRenewDeadline)
		for side, m := range map[string]k8sMeasured{"client-go": real, "simulator": simulated} {
			assert.GreaterOrEqual(t, m.giveUp, k8sRenewDeadline-5*time.Millisecond, "%s: A tries until RenewDeadline", side)
			assert.LessOrEqual(t, m.giveUp, k8sRenewDeadline+k8sSlack, "%s: and stops then", side)
		}
		assert.InDelta(t, real.giveUp.Seconds(), simulated.giveUp.Seconds(), k8sSlack.Seconds(), "give-up: client-go vs simulator")
	})
	t.Run("release", func(t *testing.T) {
		t.Parallel()
		real, simulated := measureRelease(t), simRelease(t)
		t.Logf("with ReleaseOnCancel B took over %v (client-go) and %v (simulator) after A's cancel",
			real.release.Round(time.Millisecond), simulated.release.Round(time.Millisecond))
		for side, m := range map[string]k8sMeasured{"client-go": real, "simulator": simulated} {
			assert.Greater(t, m.release, time.Duration(0), side)
			assert.LessOrEqual(t, m.release, k8sJitteredRetry+k8sSlack, "%s: B takes over at its next try", side)
		}
	})
	for _, verb := range []string{"create", "update"} {
		t.Run("conflict-"+verb, func(t *testing.T) {
			t.Parallel()
			raceCandidates(t, verb)
		})
	}
	t.Run("conflict-create-simulator", func(t *testing.T) {
		t.Parallel()
		simRaceCreate(t)
	})
}

// assertTakeover holds one side's takeover to client-go's bounds.
func assertTakeover(t *testing.T, side string, m k8sMeasured) {
	t.Helper()
	assert.Greater(t, m.takeover, k8sRecordLease, "%s: not before LeaseDurationSeconds after B last saw a change", side)
	assert.LessOrEqual(t, m.takeover, k8sRecordLease+k8sJitteredRetry+k8sSlack, "%s: at B's next try after that", side)
	assert.Less(t, m.takeover, k8sLeaseDuration, "%s: LeaseDurationSeconds is whole seconds: 1.5 s is obeyed as 1 s", side)
	// B saw A's record change at most a jittered retry after the renewal
	// that changed it, which was at most a second before A's last one.
	assert.Greater(t, m.sinceRenew, time.Duration(0), side)
	assert.LessOrEqual(t, m.sinceRenew, k8sRecordLease+2*k8sJitteredRetry+k8sSlack, "%s: after A's last renewal", side)
}

// startPair starts A (with releaseOnCancel) and, once it leads, B,
// k8sStagger after A; it returns at k8sStop after A's start, when the
// stories change something.
func startPair(t *testing.T, releaseOnCancel bool) (*leaseAPI, *candidate, *candidate) {
	t.Helper()
	api := newLeaseAPI()
	t0 := time.Now()
	a := runCandidate(t, api, "A", releaseOnCancel)
	waitCallback(t, a, true, time.Second)
	time.Sleep(time.Until(t0.Add(k8sStagger)))
	b := runCandidate(t, api, "B", false)
	time.Sleep(time.Until(t0.Add(k8sStop)))
	return api, a, b
}

// measureTakeover: A leads, B waits; A's context is cancelled without
// ReleaseOnCancel, so its renewals stop and the record stays A's. B takes
// over once LeaseDurationSeconds (1 s, not 1.5) have passed since it last
// saw the record change, at its next jittered try.
func measureTakeover(t *testing.T) k8sMeasured {
	api, a, b := startPair(t, false) // A renews; B sees the record change each second
	a.cancel()
	stopped := waitCallback(t, a, false, time.Second)
	bAt := waitCallback(t, b, true, k8sRecordLease+3*k8sJitteredRetry+time.Second)
	calls := api.log()
	took := firstWrite(calls, "B")
	renewed := lastWrite(calls, "A", took)
	seen := lastChangeSeen(calls, "B", took)
	require.False(t, took.IsZero() || renewed.IsZero() || seen.IsZero())
	m := k8sMeasured{takeover: bAt.Sub(seen), sinceRenew: bAt.Sub(renewed)}

	assert.Less(t, stopped.Sub(renewed), k8sRetryPeriod+k8sSlack, "A stops renewing when cancelled")
	assert.Equal(t, "B", holderNow(t, api), "the record is B's")
	return m
}

// measureGiveUp: A leads; from 1.2 s on the API server fails its updates.
// A's renewal keeps trying every RetryPeriod and gives up RenewDeadline
// after its first failed try: OnStoppedLeading.
func measureGiveUp(t *testing.T) k8sMeasured {
	api, a, b := startPair(t, false)
	failFrom := time.Now()
	api.fail("A", true)
	stopped := waitCallback(t, a, false, k8sRetryPeriod+k8sRenewDeadline+time.Second)
	// Each try is the fast path's update, then a get and the slow path's
	// update (tryAcquireOrRenew): count the tries by their gets.
	var firstFailed time.Time
	tries := 0
	for _, c := range api.log() {
		switch {
		case c.who != "A" || c.at.Before(failFrom) || !c.at.Before(stopped):
		case c.verb == "update" && c.err != nil && firstFailed.IsZero():
			firstFailed = c.at
		case c.verb == "get":
			tries++
		}
	}
	require.False(t, firstFailed.IsZero(), "A's updates failed")
	m := k8sMeasured{giveUp: stopped.Sub(firstFailed)}
	assert.GreaterOrEqual(t, firstFailed.Sub(failFrom), time.Duration(0))
	assert.LessOrEqual(t, firstFailed.Sub(failFrom), k8sRetryPeriod+k8sSlack, "the next renewal is at most a RetryPeriod away")
	// It tried at once and every RetryPeriod until the deadline.
	assert.InDelta(t, int(k8sRenewDeadline/k8sRetryPeriod)+1, tries, 1, "tries within RenewDeadline")
	bAt := waitCallback(t, b, true, k8sRecordLease+3*k8sJitteredRetry+time.Second)
	t.Logf("client-go: B started leading %v after A's updates began to fail; A stopped %v after", bAt.Sub(failFrom).Round(time.Millisecond), stopped.Sub(failFrom).Round(time.Millisecond))
	return m
}

// measureRelease: A leads with ReleaseOnCancel; its cancel writes the
// record with no holder, and B takes it at its next try.
func measureRelease(t *testing.T) k8sMeasured {
	api, a, b := startPair(t, true)
	cancelled := time.Now()
	a.cancel()
	stopped := waitCallback(t, a, false, time.Second)
	bAt := waitCallback(t, b, true, 2*k8sJitteredRetry+time.Second)
	m := k8sMeasured{release: bAt.Sub(cancelled)}
	var released *leaseCall
	for _, c := range api.log() {
		if c.who == "A" && c.verb == "update" && c.err == nil && c.holder == "" {
			released = &c
			break
		}
	}
	require.NotNil(t, released, "A released the lease: an update with no holder")
	assert.Contains(t, released.raw, `"leaseDurationSeconds":1`, "tryRelease writes LeaseDurationSeconds 1")
	assert.Less(t, stopped.Sub(cancelled), k8sSlack+5*time.Millisecond, "A stops leading when it has released")
	return m
}

// raceCandidates: A and B start together and their first create (no
// lease yet) or first update (a lease left by a dead holder) cross at the
// API server. Exactly one is refused (AlreadyExists, Conflict) and exactly
// one leads.
func raceCandidates(t *testing.T, verb string) {
	api := newLeaseAPI()
	api.race = verb
	if verb == "update" {
		// A lease the dead "old" left a minute ago: each candidate still
		// waits LeaseDurationSeconds from when it first saw it.
		long := metav1.NewMicroTime(time.Now().Add(-time.Minute))
		one, old := int32(1), "old"
		require.NoError(t, api.tracker.Create(leasesResource, &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Namespace: k8sLeaseNamespace, Name: k8sLeaseName, ResourceVersion: "1"},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: &old, LeaseDurationSeconds: &one, AcquireTime: &long, RenewTime: &long},
		}, k8sLeaseNamespace))
		api.rv = 1
	}
	a := runCandidate(t, api, "A", false)
	b := runCandidate(t, api, "B", false)
	var winner, loser *candidate
	require.NoError(t, waitFor(k8sRecordLease+3*k8sJitteredRetry+2*time.Second, "one candidate leads", func() bool {
		as, _ := a.times()
		bs, _ := b.times()
		switch {
		case !as.IsZero():
			winner, loser = a, b
		case !bs.IsZero():
			winner, loser = b, a
		}
		return winner != nil
	}))
	time.Sleep(k8sRecordLease + k8sJitteredRetry) // the loser retries, sees the winner renewing
	started, _ := loser.times()
	assert.True(t, started.IsZero(), "exactly one leads: %s does not", loser.name)
	assert.Equal(t, winner.name, holderNow(t, api))
	refused := 0
	for _, c := range api.log() {
		if c.verb == verb && c.who == loser.name && c.err != nil {
			switch verb {
			case "create":
				assert.True(t, apierrors.IsAlreadyExists(c.err), "the second create: %v", c.err)
			case "update":
				assert.True(t, apierrors.IsConflict(c.err), "the crossing update: %v", c.err)
			}
			refused++
		}
	}
	assert.Equal(t, 1, refused, "the loser's %s was refused once", verb)
	t.Logf("client-go: racing %ss, %s led and %s was refused", verb, winner.name, loser.name)
}

// holderNow is the stored record's holder.
func holderNow(t *testing.T, api *leaseAPI) string {
	t.Helper()
	api.mu.Lock()
	defer api.mu.Unlock()
	obj, err := api.tracker.Get(leasesResource, k8sLeaseNamespace, k8sLeaseName)
	require.NoError(t, err)
	return resourcelock.LeaseSpecToLeaderElectionRecord(&obj.(*coordinationv1.Lease).Spec).HolderIdentity
}

// The simulated side: the same stories on the simulated Kubernetes Lease
// (sim/kubernetes, "mode": "kubernetes"): one etcd member behind the
// apiserver, 1 ms links, client-1 (A) from 0 and client-2 (B) from 50 ms,
// the same durations (ttl is LeaseDuration).

// k8sStagger is when B starts after A, on both sides.
const k8sStagger = 50 * time.Millisecond

// k8sScenario is the stories' scenario, edited by edit.
func k8sScenario(edit func(*sim.Scenario)) *sim.Scenario {
	sc, err := sim.Defaults("kubernetes")
	if err != nil {
		panic(err)
	}
	kubernetes.Nodes.Set(sc, 1)
	sc.TTL = sim.Duration(k8sLeaseDuration)
	kubernetes.RenewDeadline.Set(sc, sim.Duration(k8sRenewDeadline))
	kubernetes.RetryPeriod.Set(sc, sim.Duration(k8sRetryPeriod))
	sc.Clients, sc.Rounds, sc.Stagger = 2, 1, sim.Duration(k8sStagger)
	sc.Latency, sc.Jitter = sim.Duration(time.Millisecond), 0
	sc.Work, sc.Duration = sim.Duration(600*time.Millisecond), sim.Duration(5*time.Second)
	if edit != nil {
		edit(sc)
	}
	return sc
}

// k8sSimRun runs the scenario with its trace kept.
func k8sSimRun(t *testing.T, sc *sim.Scenario) *sim.Sim {
	t.Helper()
	require.NoError(t, sc.Validate())
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.EnableTrace()
	runSafely(t, s)
	return s
}

// k8sEvents are the instants of node's trace events of kind (and op, if
// not empty) whose note holds text.
func k8sEvents(s *sim.Sim, node, kind, op, text string) []time.Duration {
	var out []time.Duration
	for _, e := range s.Trace() {
		if e.Node == node && e.Kind.String() == kind && (op == "" || e.Op == op) && strings.Contains(e.Note, text) {
			out = append(out, e.At)
		}
	}
	return out
}

// k8sSimGrant is when client started leading (its grant), or -1.
func k8sSimGrant(s *sim.Sim, client string) time.Duration {
	for _, g := range s.Check.Summary(s.End()).Grants {
		if g.Client == client {
			return time.Duration(g.AtMs * float64(time.Millisecond))
		}
	}
	return -1
}

// lastBefore is the last of ts before at, or -1.
func lastBefore(ts []time.Duration, at time.Duration) time.Duration {
	last := time.Duration(-1)
	for _, x := range ts {
		if x < at {
			last = x
		}
	}
	return last
}

// firstFrom is the first of ts at or after at, or -1.
func firstFrom(ts []time.Duration, at time.Duration) time.Duration {
	for _, x := range ts {
		if x >= at {
			return x
		}
	}
	return -1
}

// k8sStop is when the real stories change something: 1.2 s after A led.
const k8sStop = 1200 * time.Millisecond

// simTakeover: client-1 crashes at 1.2 s (its renewals stop, the record
// stays its own); client-2 takes over.
func simTakeover(t *testing.T) k8sMeasured {
	s := k8sSimRun(t, k8sScenario(func(sc *sim.Scenario) {
		sc.Faults = []sim.Fault{{At: sim.Duration(k8sStop), Crash: "client-1"}}
	}))
	took := k8sSimGrant(s, "client-2")
	require.Positive(t, took, "client-2 takes over")
	seen := lastBefore(k8sEvents(s, "client-2", "observe", "", "the record changed"), took)
	renewed := time.Duration(-1) // the apiserver's last PUT from client-1
	for _, e := range s.Trace() {
		if e.At < k8sStop && e.Node == kubernetes.APIServerName && e.Kind == sim.TraceRecv && e.Peer == "client-1" && e.Op == kubernetes.OpUpdate.String() {
			renewed = e.At
		}
	}
	require.True(t, seen >= 0 && renewed >= 0)
	return k8sMeasured{takeover: took - seen, sinceRenew: took - renewed}
}

// simGiveUp: client-1 is cut off from 1.2 s on; its renewal's requests
// go unanswered, and it stops leading RenewDeadline after the first.
func simGiveUp(t *testing.T) k8sMeasured {
	s := k8sSimRun(t, k8sScenario(func(sc *sim.Scenario) {
		sc.Faults = []sim.Fault{{At: sim.Duration(k8sStop), Partition: [][]string{{"client-1"}}, For: sim.Duration(3 * time.Second)}}
	}))
	firstFailed := firstFrom(k8sEvents(s, "client-1", "send", kubernetes.OpUpdate.String(), ""), k8sStop)
	stopped := firstFrom(k8sEvents(s, "client-1", "lead", "", "failed to renew"), k8sStop)
	require.True(t, firstFailed >= 0 && stopped >= 0, "client-1 renews after the cut and stops leading")
	took := k8sSimGrant(s, "client-2")
	t.Logf("simulator: client-2 started leading %v after client-1 was cut off; client-1 stopped %v after", took-k8sStop, stopped-k8sStop)
	return k8sMeasured{giveUp: stopped - firstFailed}
}

// simRelease: client-1, with releaseOnCancel, is cancelled by its
// application after two periods of 600 ms (leadPeriods), at about 1.2 s.
func simRelease(t *testing.T) k8sMeasured {
	s := k8sSimRun(t, k8sScenario(func(sc *sim.Scenario) {
		kubernetes.ReleaseOnCancel.Set(sc, true)
		kubernetes.LeadPeriods.Set(sc, 2)
	}))
	cancelled := firstFrom(k8sEvents(s, "client-1", "lead", "", "periods led"), 0)
	require.GreaterOrEqual(t, cancelled, time.Duration(0), "client-1's application cancels Run")
	require.NotEmpty(t, k8sEvents(s, "client-1", "release", "", "released"), "client-1 releases the Lease")
	took := k8sSimGrant(s, "client-2")
	require.Positive(t, took, "client-2 takes over")
	return k8sMeasured{release: took - cancelled}
}

// simRaceCreate: both candidates start at 0 with no Lease: both create,
// one is refused (409), exactly one leads.
func simRaceCreate(t *testing.T) {
	s := k8sSimRun(t, k8sScenario(func(sc *sim.Scenario) { sc.Stagger = 0 }))
	grants := s.Check.Summary(s.End()).Grants
	require.Len(t, grants, 1, "exactly one leads")
	loser := map[string]string{"client-1": "client-2", "client-2": "client-1"}[grants[0].Client]
	refused := k8sEvents(s, loser, "recv", kubernetes.OpConflict.String(), "")
	assert.Len(t, refused, 1, "the loser's create is refused once")
	t.Logf("simulator: racing creates, %s led and %s was refused", grants[0].Client, loser)
}
