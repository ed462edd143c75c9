package etcd

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lockscope/lockscope/sim"
)

// The read–write lock of etcd's experimental recipes, with the readers
// option (etcd-io/etcd, tag v3.5.33, client/v3/experimental/recipes/
// rwmutex.go and key.go):
//
//   - NewRWMutex(session, "/locks/mylock") keeps pfx "/locks/mylock/".
//     RLock and Lock each create a new key with the session's lease,
//     newUniqueEphemeralKey(s, pfx+"read") or (pfx+"write"):
//     "<prefix>/<time.Now().UnixNano()>", put by a Txn that succeeds only
//     if the key does not exist (putNewKV: If(Version(key) = 0)); its
//     revision is the Txn's header revision. The key here is the
//     client's wall clock in nanoseconds (the run's own clock).
//   - Then waitOnLastRev in a loop: Get(prefix, WithLastRev(),
//     WithMaxModRev(myRev-1)) — the key under prefix with the highest
//     mod revision below its own — and, if there is one, WaitEvents on
//     that key from myKey's revision until a DELETE; then the Get again.
//     RLock's prefix is pfx+"write": a reader waits only for the last
//     write key before its own. Lock's is pfx: a writer waits for the
//     last key of either kind before its own. So a reader that comes
//     after a waiting writer waits, as in Curator's recipe.
//   - When the Get finds nothing, RLock and Lock return: there is no
//     check that the key still exists (Mutex.Lock's Get(myKey) after
//     waitDeletes has no counterpart), and no IsOwner: myKey is not
//     exported, so a Txn cannot be guarded by it (fencing is refused).
//   - RUnlock and Unlock delete myKey; the session's lease keeps every
//     key alive as for the Mutex, and Session.Done() tells the holder.
//
// The simulation reads by create revision (Range's RangeLast): the keys
// are never modified after their create, so their mod revision is their
// create revision. A wait that fails deletes the key as Mutex.Lock does;
// RWMutex returns the error and leaves the key to the application
// (sim/conformance/DIFFERENCES.md).

// The RWMutex's two kinds of key under Prefix.
const (
	ReadPrefix  = Prefix + "read"
	WritePrefix = Prefix + "write"
)

// reader reports whether this client RLocks: with readers N,
// client-1…client-N do.
func (c *etcdClient) reader(sc *sim.Scenario) bool { return c.index < Readers.Of(sc) }

// rwKey is newUniqueEphemeralKey's key for this client's call.
func (c *etcdClient) rwKey(ctx sim.Ctx) string {
	p := WritePrefix
	if c.reader(ctx.Scenario()) {
		p = ReadPrefix
	}
	return p + "/" + strconv.FormatInt(int64(ctx.Wall()), 10)
}

// waitPrefix is the prefix of waitOnLastRev's Get: the Mutex's (every
// key), RLock's (the write keys) or Lock's (every key).
func (c *etcdClient) waitPrefix(sc *sim.Scenario) string {
	if Readers.IsOn(sc) && c.reader(sc) {
		return WritePrefix
	}
	return Prefix
}

// watchStart is where the wait on a blocking key starts: WaitEvents from
// myKey's revision for RWMutex, the Get's header revision for the Mutex.
func (c *etcdClient) watchStart(ctx sim.Ctx, getRev int64) int64 {
	if Readers.IsOn(ctx.Scenario()) {
		return c.myRev
	}
	return getRev
}

// rwCreated follows the key's Txn: RWMutex always asks waitOnLastRev's
// Get first.
func (c *etcdClient) rwCreated(ctx sim.Ctx) {
	if ctx.Tracing() {
		ctx.TraceSaid(traceLock, OpTxn.String(), fmt.Sprintf("%s created at revision %d", c.myKey, c.myRev),
			sim.Say("note.etcd.rwCreated", "key", c.myKey, "rev", fmt.Sprint(c.myRev)))
	}
	c.query(ctx)
}

// rwAcquired is RLock or Lock returning: a read hold for a reader;
// false for the Mutex.
func (c *etcdClient) rwAcquired(ctx sim.Ctx) bool {
	sc := ctx.Scenario()
	if !Readers.IsOn(sc) {
		return false
	}
	prefix := c.waitPrefix(sc)
	if ctx.Tracing() {
		ctx.TraceSaid(traceLock, "acquired", fmt.Sprintf("no key under %s below revision %d", prefix, c.myRev),
			sim.Say("note.etcd.rwAcquired", "prefix", prefix, "rev", fmt.Sprint(c.myRev)))
	}
	if c.reader(sc) {
		c.GrantShared(ctx, c.myRev, 0)
	} else {
		c.Grant(ctx, c.myRev, 0)
	}
	return true
}

// checkReadersWith refuses what RWMutex does not go with: the election,
// fencing (no IsOwner to guard a Txn with), reenter (a second Lock makes
// a new key that waits for the first, its own) and herd (it waits on one
// key).
func checkReadersWith(sc *sim.Scenario) error {
	if !Readers.IsOn(sc) {
		return nil
	}
	switch {
	case Electing(sc):
		return sim.FieldErr("readers", sim.Say("field.readersElection"), "a leader election has no readers: use lock")
	case sc.Fencing:
		return sim.FieldErr("readers", sim.Say("field.etcdReadersFencing"),
			"RWMutex keeps its key unexported and has no IsOwner(): no Txn can be guarded by it; turn fencing off")
	case Reenter.IsOn(sc):
		return sim.FieldErr("readers", sim.Say("field.etcdReadersReenter"),
			"RWMutex is not reentrant: a second Lock creates another key, which waits for the first, its own")
	case Herd.Of(sc):
		return sim.FieldErr("readers", sim.Say("field.etcdReadersHerd"), "RWMutex waits on one key; herd is for the Mutex")
	}
	return nil
}

// holderKeys are the keys under Prefix that hold by RWMutex's rule, in
// create order: every read key created before the first write key, or
// that write key when it is the oldest.
func (s *Server) holderKeys() []string {
	keys := make([]string, 0, len(s.kv))
	for k := range s.kv {
		if strings.HasPrefix(k, Prefix) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(s.kv[a].CreateRev, s.kv[b].CreateRev) })
	for i, k := range keys {
		if !strings.HasPrefix(k, ReadPrefix) {
			if i == 0 {
				return keys[:1]
			}
			return keys[:i]
		}
	}
	return keys
}

// recordHolders tells the checker whom the leader's keyspace lets hold
// under RWMutex's rule, each holder's key its own ownership (several
// readers at once); ownedKey keeps them, one a line.
func (s *Server) recordHolders(ctx sim.Ctx, expired bool) {
	now := s.holderKeys()
	joined := strings.Join(now, "\n")
	if joined == s.ownedKey {
		return
	}
	var was []string
	if s.ownedKey != "" {
		was = strings.Split(s.ownedKey, "\n")
	}
	for _, k := range was {
		if !slices.Contains(now, k) {
			ctx.Disown(k, expired)
		}
	}
	for _, k := range now {
		if !slices.Contains(was, k) {
			ctx.Own(k, s.kv[k].Client)
		}
	}
	s.ownedKey = joined
}

// disownAll ends what this member reported as owned: the Mutex's owner,
// or RWMutex's holders.
func (s *Server) disownAll(ctx sim.Ctx) {
	switch {
	case s.ownedKey == "":
		return
	case Readers.IsOn(ctx.Scenario()):
		for _, k := range strings.Split(s.ownedKey, "\n") {
			ctx.Disown(k, false)
		}
	default:
		ctx.Disown(Prefix, false)
	}
	s.ownedKey = ""
}
